/**
 * `lateCheckpoint`: a Byzantine checkpoint proposer that submits its checkpoint to the parent
 * chain late, after the service has buffered another one with the same start and another end.
 * Whenever the validator's bridge proposes a checkpoint, it proposes `length` blocks instead of
 * `params.checkpointLength` (a range the other validators attest: its root is the sidechain's), and
 * it holds back the signed checkpoint the service buffered. The buffer expires, a no-ack rotates the
 * proposer, and the next proposer's checkpoint (the usual length) flushes it: at the commit of the
 * block that delivered that checkpoint, before its post buffers it and its proposer submits it, the
 * validator submits its own, old, signed checkpoint. The root chain takes it (it continues the last
 * record and carries the signatures), so the ack of its header block meets a buffered checkpoint
 * that ends elsewhere: the service must store the record's end, root and proposer (the end-block
 * adjustment, heimdall.md §3.3), and every oracle must still hold.
 *
 * Honest bridges here always propose `checkpointLength` blocks from the last end, so two
 * checkpoints with one start have one end: only a proposer that deviates makes a record and a buffer
 * that end apart (on Heimdall, an honest bridge whose range grew with the sidechain's head while its
 * parent-chain transaction waited could too).
 */
import { type BridgeAction } from '../../src/bridge/bridge';
import { checkpointKey } from '../../src/bridge/bridgeKeys';
import { getBuffer, getLastCheckpoint } from '../../src/modules/checkpoint/keeper';
import { type MsgCheckpoint } from '../../src/modules/checkpoint/msgs';
import { type ParentCall } from '../../src/parent/parentChain';
import { VALIDATOR_INDEX } from '../core/schemaParts';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf, readValidator } from './fault';

export type LateCheckpointFault = FaultTiming & {
  kind: 'lateCheckpoint';
  validator: number;
  /** Blocks its checkpoints cover (null: half of params.checkpointLength, at least 2). */
  length: number | null;
};

type Submission = Extract<ParentCall, { method: 'submitCheckpoint' }>;

export const lateCheckpoint: FaultDef<LateCheckpointFault> = {
  kind: 'lateCheckpoint',
  summary: 'a checkpoint proposer proposes another length and submits its checkpoint only once another is buffered',
  fields: ['validator', 'length'],
  schema: {
    properties: {
      validator: VALIDATOR_INDEX,
      length: { type: 'integer', minimum: 2, maximum: 1024, description: 'blocks its checkpoints cover' },
    },
    required: ['validator'],
  },
  decode: (r, o, ctx) => ({
    validator: readValidator(r, o, ctx, false),
    length: o.length === undefined ? null : r.int(o, 'length', undefined, 2, 1024),
  }),
  encode: (f) => ({ validator: f.validator, ...(f.length !== null ? { length: f.length } : {}) }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    const c = mainOf(site);
    const length = BigInt(f.length ?? Math.max(2, Math.floor(c.checkpointLength / 2)));
    if (!start) {
      c.setBehaviour(`fault:${index}`, [f.validator], null);
      return `validator ${f.validator}`;
    }
    let held: Submission | null = null;
    c.setBehaviour(`fault:${index}`, [f.validator], {
      bridgeActions(node, actions, tools) {
        const out: BridgeAction[] = [];
        for (const a of actions) {
          if (a.kind === 'tx' && a.def.type === 'checkpoint/MsgCheckpoint') {
            const m = a.msg as MsgCheckpoint;
            const endBlock = m.startBlock + length - 1n;
            const rootHash = tools.rootHash(m.startBlock, endBlock);
            if (rootHash === null) continue; // not confirmed yet: propose on a later tick
            const head = a.reads?.sidechain?.head ?? null;
            out.push({
              ...a,
              key: checkpointKey(m.startBlock, endBlock, rootHash),
              msg: { ...m, endBlock, rootHash },
              reads: { sidechain: { endBlock, head } },
            });
          } else if (a.kind === 'parentCall' && a.call.method === 'submitCheckpoint' && a.call.from === node.address) {
            // Its own checkpoint (or a re-submission of it): held back.
            if (held === null || held.checkpoint.startBlock !== a.call.checkpoint.startBlock) held = a.call;
          } else out.push(a);
        }
        if (held !== null) {
          const store = node.app.store;
          const last = getLastCheckpoint(store)?.checkpoint.endBlock;
          const next = last === undefined ? 0n : last + 1n;
          const buf = getBuffer(store);
          if (held.checkpoint.startBlock !== next)
            held = null; // acked or passed by another: stale
          else if (!buf || buf.endBlock !== held.checkpoint.endBlock || buf.proposer !== held.checkpoint.proposer) {
            // Another checkpoint flushed ours: send ours now, ahead of its proposer's submission.
            out.push({ kind: 'parentCall', key: `submit/${held.checkpoint.startBlock}`, call: held });
            held = null;
          }
        }
        return out;
      },
    });
    return `validator ${f.validator}, ${length}-block checkpoints submitted late`;
  },
};
