/**
 * The byzantine-refused oracle on hand-built records: silent when a crafted tx its sender's block
 * delivered gets the reference's answer (at DeliverTx, or by its side-tx result), or when that
 * block is not the one committed; fires when the service accepts it, refuses it with another code,
 * or votes a side-stage one through.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../src/core/bytes';
import { type RunObservation } from '../core/record';
import { ByzantineRefusedOracle } from './byzantineRefused';
import { VALIDATORS, commit, hash, rec, tx } from './testing/observations';

const V1 = VALIDATORS[0]!.signer;
const send = { type: 'cosmos-sdk/MsgSend' as const, fromAddress: V1, toAddress: V1, amount: [] };

function crafted(
  height: bigint,
  index: number,
  txHash: Hex,
  expect: { stage: 'deliver' | 'side'; codespace: string; codes: number[] } | null,
  ifAccepted: number | null = null,
): RunObservation {
  return {
    kind: 'byzantine.tx',
    validator: 1,
    craft: 'wrongChainId',
    txHash,
    via: 'block',
    height,
    index,
    expect,
    ifAccepted,
  };
}

const SIG = { stage: 'deliver' as const, codespace: 'sdk', codes: [4] };
const SIDE = { stage: 'side' as const, codespace: '1', codes: [5502] };

function feed(obs: RunObservation[]): ByzantineRefusedOracle {
  const o = new ByzantineRefusedOracle();
  for (const [i, x] of obs.entries()) o.observe(rec(i + 1, 'svc-1', x));
  return o;
}

/** A delivered tx with a code and a codespace. */
function delivered(index: number, code: number, codespace: string, label: string) {
  return { ...tx(index, V1, send, code, label), codespace };
}

describe('byzantine-refused oracle', () => {
  it('silent when the delivered tx gets the reference code, or its block is not the one committed', () => {
    const o = feed([
      crafted(1n, 0, hash('a'), SIG),
      commit(1n, { txs: [delivered(0, 4, 'sdk', 'a')] }),
      // Height 2: another block committed (the crafted tx is not at its place): not judged.
      crafted(2n, 0, hash('b'), SIG),
      commit(2n, { txs: [delivered(0, 0, '', 'other')] }),
      // A tx valid on purpose (no expectation) and a gossiped copy: not judged.
      crafted(3n, 0, hash('c'), null),
      { ...(crafted(3n, 1, hash('d'), SIG) as object), via: 'gossip', height: null, index: null } as RunObservation,
      commit(3n, { txs: [delivered(0, 0, '', 'c'), delivered(1, 0, '', 'd')] }),
    ]);
    expect(o.violation).toBeNull();
  });

  it('fires when the service accepts a crafted tx', () => {
    const o = feed([crafted(1n, 0, hash('a'), SIG), commit(1n, { txs: [delivered(0, 0, '', 'a')] })]);
    expect(o.violation).toMatchObject({ oracle: 'byzantine-refused', class: 'safety' });
    expect(o.violation!.message).toMatch(
      /wrongChainId tx 0x\w+ at height 1 was accepted; the reference refuses it with sdk\/4/,
    );
  });

  it('fires when the service refuses it with another code or codespace', () => {
    const code = feed([crafted(1n, 0, hash('a'), SIG), commit(1n, { txs: [delivered(0, 5, 'sdk', 'a')] })]);
    expect(code.violation!.message).toMatch(/was refused with sdk\/5; the reference refuses it with sdk\/4/);
    const space = feed([crafted(1n, 0, hash('a'), SIG), commit(1n, { txs: [delivered(0, 4, '1', 'a')] })]);
    expect(space.violation!.message).toMatch(/was refused with 1\/4/);
  });

  it('judges a tx that depends on an earlier one only when that one was accepted', () => {
    const skipped = feed([
      crafted(1n, 1, hash('b'), SIG, 0),
      commit(1n, { txs: [delivered(0, 12, 'sdk', 'a'), delivered(1, 0, '', 'b')] }),
    ]);
    expect(skipped.violation).toBeNull();
    const judged = feed([
      crafted(1n, 1, hash('b'), SIG, 0),
      commit(1n, { txs: [delivered(0, 0, '', 'a'), delivered(1, 0, '', 'b')] }),
    ]);
    expect(judged.violation!.message).toMatch(/was accepted/);
  });

  it('side stage: silent on the refused tally, fires on a tally voted through or a DeliverTx refusal', () => {
    const h = hash('a');
    const ok = feed([
      crafted(1n, 0, h, SIDE),
      commit(1n, { txs: [delivered(0, 0, '', 'a')] }),
      commit(3n, { sideTxs: [{ txHash: h, msgType: 'topup/MsgTopup', tally: 'skip', code: 5502 }] }),
    ]);
    expect(ok.violation).toBeNull();
    const through = feed([
      crafted(1n, 0, h, SIDE),
      commit(1n, { txs: [delivered(0, 0, '', 'a')] }),
      commit(3n, { sideTxs: [{ txHash: h, msgType: 'topup/MsgTopup', tally: 'yes', code: 0 }] }),
    ]);
    expect(through.violation!.message).toMatch(/side-tx result 0, the reference gives 5502/);
    const atDeliver = feed([crafted(1n, 0, h, SIDE), commit(1n, { txs: [delivered(0, 2501, '1', 'a')] })]);
    expect(atDeliver.violation!.message).toMatch(/refused by DeliverTx \(1\/2501\); the reference takes it/);
  });
});
