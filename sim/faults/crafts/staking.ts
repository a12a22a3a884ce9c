/**
 * Byzantine crafts for the staking module: joins, stake updates, exits and signer changes of an
 * id or signer that joined already, an unknown id, an exited validator, the same signer
 * (`1` 2507, 2501, 2504, 2513), of a parent-chain event already processed (`1` 1401) or of one
 * that does not exist (side 5502).
 */
import { type Hex } from '../../../src/core/bytes';
import {
  MsgSignerUpdateDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgValidatorJoinDef,
} from '../../../src/modules/staking/msgs';
import { allValidators, getValidator } from '../../../src/modules/staking/keeper';
import {
  type Craft,
  type CraftEnv,
  EXITS,
  SIDE_REFUSED,
  SIGNERS,
  canPay,
  myValidatorId,
  one,
  one1,
  sign,
  when,
} from './craftKit';

/** An id no validator has. */
function unknownId(env: CraftEnv): bigint {
  let max = 0n;
  for (const v of allValidators(env.state)) if (v.id > max) max = v.id;
  return max + 1000n;
}

const eventRef = (env: CraftEnv, id: bigint, ref?: { txHash: Hex; logIndex: bigint }) => ({
  from: env.me.address,
  id,
  txHash: ref?.txHash ?? env.fresh(),
  logIndex: ref?.logIndex ?? 0n,
});

export const STAKING_CRAFTS = {
  joinExistingId(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorJoinDef, { ...eventRef(env, id), pubKey: env.stranger.pubKey }), one(2507));
  },
  joinExistingSigner: when(SIGNERS, (env) => {
    const other = allValidators(env.state).find((v) => v.signer !== env.me.address);
    if (!other || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env)), pubKey: other.pubKey }), one(2507));
  }),
  joinNoEvent: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env)), pubKey: env.stranger.pubKey }),
          SIDE_REFUSED,
        )
      : null,
  joinReplayed(env) {
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (!ref || !canPay(env)) return null;
    return one1(
      sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env), ref), pubKey: env.stranger.pubKey }),
      one(1401),
    );
  },
  stakeUpdateUnknown: (env) =>
    canPay(env) ? one1(sign(env, MsgStakeUpdateDef, eventRef(env, unknownId(env))), one(2501)) : null,
  stakeUpdateNoEvent(env) {
    const id = myValidatorId(env);
    return id === null || !canPay(env) ? null : one1(sign(env, MsgStakeUpdateDef, eventRef(env, id)), SIDE_REFUSED);
  },
  stakeUpdateReplayed(env) {
    const id = myValidatorId(env);
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (id === null || !ref || !canPay(env)) return null;
    return one1(sign(env, MsgStakeUpdateDef, eventRef(env, id, ref)), one(1401));
  },
  exitUnknown: (env) =>
    canPay(env) ? one1(sign(env, MsgValidatorExitDef, eventRef(env, unknownId(env))), one(2501)) : null,
  exitExited(env) {
    const gone = allValidators(env.state).find((v) => v.endEpoch !== 0n);
    if (!gone || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorExitDef, eventRef(env, gone.id)), one(2504));
  },
  exitNoEvent: when(EXITS, (env) => {
    const v = allValidators(env.state).find((x) => x.endEpoch === 0n);
    if (!v || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorExitDef, eventRef(env, v.id)), SIDE_REFUSED);
  }),
  signerUpdateUnknown: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgSignerUpdateDef, { ...eventRef(env, unknownId(env)), pubKey: env.stranger.pubKey }),
          one(2501),
        )
      : null,
  signerUpdateSame: when(SIGNERS, (env) => {
    const id = myValidatorId(env);
    const v = id === null ? undefined : getValidator(env.state, id);
    if (!v || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, v.id), pubKey: v.pubKey }), one(2513));
  }),
  signerUpdateNoEvent(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, id), pubKey: env.stranger.pubKey }), SIDE_REFUSED);
  },
  signerUpdateReplayed(env) {
    const id = myValidatorId(env);
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (id === null || !ref || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, id, ref), pubKey: env.stranger.pubKey }), one(1401));
  },
} satisfies Record<string, Craft>;
