import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson } from '../core/canonicalJson';
import { type Hex } from '../core/bytes';
import { type Address } from '../core/address';
import { voteSignBytesJson } from './types';

describe('vote sign bytes', () => {
  it('the hand-written canonical JSON equals the generic writer for any vote', () => {
    const hex = (n: number) =>
      fc.uint8Array({ minLength: n, maxLength: n }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
    const sideVote = fc.record(
      {
        txHash: hex(32),
        vote: fc.record({ result: fc.constantFrom('yes', 'no', 'skip'), note: fc.string() }),
        signature: hex(65),
      },
      { requiredKeys: ['txHash', 'vote'] },
    );
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom('prevote' as const, 'precommit' as const),
          height: fc.bigInt({ min: 0n, max: 2n ** 64n }),
          round: fc.integer({ min: 0, max: 1000 }),
          blockHash: fc.option(hex(32), { nil: null }),
          validator: hex(20),
          sideTxVotes: fc.option(fc.array(sideVote, { maxLength: 3 }), { nil: undefined }),
        }),
        fc.oneof(fc.constant('lockstep-1'), fc.string()),
        (v, chainId) => {
          const vote = { ...v, blockHash: v.blockHash as Hex | null, validator: v.validator as Address };
          if (vote.sideTxVotes === undefined) delete (vote as { sideTxVotes?: unknown }).sideTxVotes;
          const generic = canonicalJson({
            chainId,
            type: vote.type,
            height: vote.height,
            round: vote.round,
            blockHash: vote.blockHash,
            validator: vote.validator,
            sideTxVotes: vote.sideTxVotes ?? [],
          });
          expect(voteSignBytesJson(vote as never, chainId)).toBe(generic);
        },
      ),
      { numRuns: 300 },
    );
  });
});
