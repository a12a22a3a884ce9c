/** The oracles' producer delay against the public vectors (sidechain.md §7). */
import { describe, expect, it } from 'vitest';
import { producerDelayS } from './producerDelay';

describe('producer delay model: public vectors', () => {
  it('mainnet post-Delhi: period 2, producerDelay 4, backupMultiplier 2, sprint 16', () => {
    const p = { periodS: 2, producerDelayS: 4, sprint: 16, backupMultiplierS: 2 };
    expect(producerDelayS(32n, 0, p)).toBe(4n);
    expect(producerDelayS(32n, 2, p)).toBe(8n);
    expect(producerDelayS(33n, 0, p)).toBe(2n);
    expect(producerDelayS(33n, 1, p)).toBe(4n);
  });
  it('pre-Delhi: producerDelay 6, sprint 64', () => {
    const p = { periodS: 2, producerDelayS: 6, sprint: 64, backupMultiplierS: 2 };
    expect(producerDelayS(64n, 0, p)).toBe(6n);
    expect(producerDelayS(65n, 3, p)).toBe(8n);
  });
});
