/**
 * `doubleSign`: a validator signs, besides each of its votes for a block, a vote for another block
 * (the hash of the hash) and sends it to half of its peers. Honest nodes keep the first vote of
 * each validator and hold the second as evidence.
 */
import { toHex, fromHex, type Hex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf, readValidator } from './fault';
import { VALIDATOR_INDEX } from '../core/schemaParts';

export type DoubleSignFault = FaultTiming & {
  kind: 'doubleSign';
  validator: number;
};

export const doubleSign: FaultDef<DoubleSignFault> = {
  kind: 'doubleSign',
  summary: 'a validator also votes for another block, to half of its peers',
  fields: ['validator'],
  schema: { properties: { validator: VALIDATOR_INDEX }, required: ['validator'] },
  decode: (r, o, ctx) => ({ validator: readValidator(r, o, ctx, false) }),
  encode: (f) => ({ validator: f.validator }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    mainOf(site).setBehaviour(
      `fault:${index}`,
      [f.validator],
      start
        ? {
            onOwnVote: (vote, sign) =>
              vote.blockHash !== null
                ? [sign({ ...vote, blockHash: toHex(keccak256Bytes(fromHex(vote.blockHash))) as Hex })]
                : [],
          }
        : null,
    );
    return `validator ${f.validator}`;
  },
};
