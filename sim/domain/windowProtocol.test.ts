import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../src/core/errors';
import { type NodeMessage } from '../../src/node/messages';
import { CrossBoundary, type CrossMessage } from './windowProtocol';

const msg = (kind: string, to: string, deliverAt = 0): CrossMessage => ({
  from: to.startsWith('sc-') ? 'svc-1' : 'sc-1',
  to,
  msg: { kind } as NodeMessage,
  deliverAt,
  seq: 0,
  copy: 0,
});

describe('CrossBoundary', () => {
  it('keeps what is sent across in send order and empties the outbox at each barrier', () => {
    let now = 10;
    const b = new CrossBoundary('main', () => now);
    b.post(msg('sc.getHeaders', 'sc-1'));
    now = 12;
    b.post(msg('svc.span', 'sc-2'));
    expect(b.takeOutbound().map((m) => m.to)).toEqual(['sc-1', 'sc-2']);
    expect(b.takeOutbound()).toEqual([]);
  });

  it('refuses a request before the request floor and any send before the send floor', () => {
    let now = 100;
    const b = new CrossBoundary('main', () => now);
    b.promise({ sendFloorMs: 50, requestFloorMs: 200 });
    // The sidechain domain's request is `sc.getHeaders`; an answer to it (any other kind) only keeps the send floor.
    expect(() => b.post(msg('sc.getHeaders', 'sc-1'))).toThrow(InvariantError);
    expect(() => b.post(msg('svc.span', 'sc-1'))).not.toThrow();
    now = 40;
    expect(() => b.post(msg('svc.span', 'sc-1'))).toThrow(/promised horizon/);
    now = 200;
    b.post(msg('sc.getHeaders', 'sc-1'));
    expect(b.takeOutbound()).toHaveLength(2);
  });

  it('reports the earliest request and answer triggers past the last window, dropping stale ones', () => {
    const b = new CrossBoundary('sidechain', () => 0);
    expect(b.isRequestTimer('pollService')).toBe(true);
    expect(b.isRequestTimer('produce')).toBe(false);
    b.noteRequestTrigger(300);
    b.noteRequestTrigger(100);
    b.noteInbound(msg('sc.getHeaders', 'sc-1', 250));
    // Not a request to this domain: no answer follows it.
    b.noteInbound(msg('svc.span', 'sc-1', 120));
    expect(b.nextTriggers(-1)).toEqual({ requestMs: 100, answerMs: 250 });
    expect(b.nextTriggers(100)).toEqual({ requestMs: 300, answerMs: 250 });
    expect(b.nextTriggers(300)).toEqual({ requestMs: Infinity, answerMs: Infinity });
  });
});
