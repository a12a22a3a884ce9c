/** The liveness oracle: after the faults heal, service blocks, sidechain blocks and acks resume. */
import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { LivenessOracle } from './liveness';
import { commit, genesisRef, imported, inTurnChain, rec } from './testing/observations';

const fault = (kind: 'fault.start' | 'fault.end', permanent = false): RunObservation => ({
  kind,
  index: 0,
  fault: 'crash',
  detail: 'svc-1',
  permanent,
  atHeight: null,
});
const sidechainBlock = imported(inTurnChain(1)[0]!, genesisRef);

describe('liveness oracle', () => {
  const bounds = { serviceMs: 30_000, sidechainMs: 20_000, checkpointMs: null };
  it('fires when nothing commits within the bound after the heal', () => {
    const o = new LivenessOracle(bounds);
    o.observe(rec(10_000, '', fault('fault.start')));
    o.observe(rec(60_000, '', fault('fault.end')));
    o.observe(rec(65_000, 'sc-1', sidechainBlock));
    o.observe(rec(70_000, 'svc-1', commit(9n)));
    o.finish(200_000);
    expect(o.violation).toBeNull();
    const stuck = new LivenessOracle(bounds);
    stuck.observe(rec(10_000, '', fault('fault.start')));
    stuck.observe(rec(20_000, 'svc-1', commit(9n)));
    stuck.observe(rec(60_000, '', fault('fault.end')));
    stuck.observe(rec(65_000, 'sc-1', sidechainBlock));
    stuck.finish(200_000);
    expect(stuck.violation).toMatchObject({
      class: 'liveness',
      message: 'no service block within 30 s after the faults healed at 60 s',
    });
  });
  it('says nothing while a fault is still open, or when the run ends too soon after the heal', () => {
    const open = new LivenessOracle(bounds);
    open.observe(rec(10_000, '', fault('fault.start')));
    open.finish(200_000);
    expect(open.violation).toBeNull();
    const short = new LivenessOracle(bounds);
    short.observe(rec(10_000, '', fault('fault.start')));
    short.observe(rec(190_000, '', fault('fault.end')));
    short.finish(200_000);
    expect(short.violation).toBeNull();
  });
  it('checkpoint acks count from the stored checkpoint records', () => {
    const o = new LivenessOracle({ ...bounds, checkpointMs: 50_000 });
    o.observe(rec(1_000, 'svc-1', commit(1n)));
    o.observe(rec(1_000, 'sc-1', sidechainBlock));
    o.finish(100_000);
    expect(o.violation?.message).toMatch(/no checkpoint ack within 50 s after the start/);
  });
});
