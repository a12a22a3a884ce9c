/** The service-safety oracle: one block per height, one app hash after it. */
import { describe, expect, it } from 'vitest';
import { ServiceSafetyOracle } from './serviceSafety';
import { commit, hash, rec } from './testing/observations';

describe('service safety oracle', () => {
  it('silent when nodes agree; fires on two blocks at one height and on diverging app hashes', () => {
    const ok = new ServiceSafetyOracle();
    ok.observe(rec(1, 'svc-1', commit(5n)));
    ok.observe(rec(2, 'svc-2', commit(5n)));
    expect(ok.violation).toBeNull();
    const fork = new ServiceSafetyOracle();
    fork.observe(rec(1, 'svc-1', commit(5n)));
    fork.observe(rec(2, 'svc-3', commit(5n, { blockHash: hash('other') })));
    expect(fork.violation).toMatchObject({
      oracle: 'service-safety',
      class: 'safety',
      atMs: 2,
      node: 'svc-3',
      message: 'two different blocks committed at height 5',
    });
    const app = new ServiceSafetyOracle();
    app.observe(rec(1, 'svc-1', commit(5n)));
    app.observe(rec(2, 'svc-2', commit(5n, { appHash: hash('other') })));
    expect(app.violation?.message).toBe('app hashes differ after height 5');
  });
});
