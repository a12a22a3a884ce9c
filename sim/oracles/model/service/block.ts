/**
 * One service block as the model runs it: begin (the side transactions delivered two blocks ago,
 * tallied from the votes the block's last commit carries, and their post handlers), every
 * transaction (decode, the block's byte and gas limits and the one-checkpoint rule, the ante
 * handler, the message handler; a refused one leaves nothing behind), end (the validator set
 * brought in line with who is current at the ack count, the block's fees to its proposer).
 */
import { ante, type AnteContext, FEE_DENOM, isCheckpoint } from './ante';
import { type BlockContext, deliver } from './deliver';
import { ACCEPTED, by, H, type Outcome, SDK } from './outcome';
import { type ParentTruth, post, tally, type Vote } from './post';
import { type ModelState } from './state';
import { decodeModelTx, SIDE_MSGS } from './txDecode';
import { honestVotes } from './sideVotes';
import { type RuleId } from '../../ruleId';

/** Spec "Limits": block max gas and max bytes. */
export const BLOCK_MAX_GAS = 10_000_000n;
export const BLOCK_MAX_BYTES = 22_020_096;

export interface BlockInput {
  height: bigint;
  timeMs: number;
  /** The block proposer's signer address (it receives the block's fees). */
  proposer: string;
  /** The transactions as the block carries them (hex). */
  txs: readonly string[];
  /** The side-tx votes of the block's last commit. */
  votes: ReadonlyArray<Vote & { txHash: string }>;
}

export interface SideOutcome {
  txHash: string;
  msgType: string;
  tally: 'yes' | 'no' | 'skip';
  outcome: Outcome;
  disagreement: string | null;
  /** Votes no honest validator casts on this message, given the parent chain's event (sideVotes.ts). */
  badVotes: Array<{ validator: string; result: 'yes' | 'no' | 'skip'; why: string }>;
  /** The votes were judged against the event (an event-backed message). */
  votesJudged: boolean;
}

export interface BlockOutcome {
  /** Each transaction's outcome, and for an accepted one the gas the block counts for it. */
  txs: Array<{ outcome: Outcome; msgType: string | null; gas: bigint | null }>;
  sideTxs: SideOutcome[];
  /** The rules whose effects the block's state changes show. */
  effects: ReadonlySet<RuleId>;
}

/** Run one block on `s` (a branch of the committed state the caller commits). */
export function runBlock(s: ModelState, input: BlockInput, x: AnteContext, parent: ParentTruth): BlockOutcome {
  const b: BlockContext = { height: input.height, timeMs: input.timeMs, params: x.params, effects: new Set() };
  const sideTxs = begin(s, input, b, parent);
  let gas = 0n;
  let bytes = 0;
  let accepted = 0;
  let holdsCheckpoint = false;
  const txs: BlockOutcome['txs'] = [];
  for (const raw of input.txs) {
    const d = decodeModelTx(raw);
    if (!d.ok) {
      txs.push({ outcome: by('auth.ante.decode-errors', SDK.txDecode(d.why)), msgType: null, gas: null });
      continue;
    }
    const tx = d.tx;
    const type = tx.msg.type;
    if (bytes + tx.sizeBytes > BLOCK_MAX_BYTES) {
      txs.push({
        outcome: by('app.block.max-bytes', SDK.txDecode('over the block max bytes')),
        msgType: type,
        gas: null,
      });
      continue;
    }
    const checkpoint = isCheckpoint(tx.msg);
    if ((checkpoint && accepted > 0) || holdsCheckpoint) {
      txs.push({
        outcome: by(
          'app.block.checkpoint-alone',
          SDK.outOfGas('a block holding a checkpoint holds no other transaction'),
        ),
        msgType: type,
        gas: null,
      });
      continue;
    }
    const t = s.branch();
    const a = ante(t, tx, x);
    if (!a.ok) {
      txs.push({ outcome: a.why, msgType: type, gas: null });
      continue;
    }
    const r = deliver(t, tx.msg, b);
    if (r.code !== 0) {
      txs.push({ outcome: r, msgType: type, gas: null });
      continue;
    }
    if (gas + a.gas > BLOCK_MAX_GAS) {
      txs.push({ outcome: by('app.block.max-gas', SDK.outOfGas('over the block max gas')), msgType: type, gas: null });
      continue;
    }
    if (SIDE_MSGS.has(type))
      t.pending.set(`${input.height.toString().padStart(20, '0')}/${String(accepted).padStart(6, '0')}`, {
        txHash: tx.hash,
        height: input.height,
        msg: tx.msg,
      });
    t.commit();
    gas += a.gas;
    bytes += tx.sizeBytes;
    accepted++;
    holdsCheckpoint ||= checkpoint;
    txs.push({ outcome: ACCEPTED, msgType: type, gas: a.gas });
  }
  end(s, input.proposer, x, b);
  noteVoteSigners(s, input.height);
  return { txs, sideTxs, effects: b.effects };
}

/**
 * Validators vote on a block's side transactions with the state at the block's end: a top-up's
 * honest vote turns on its validator's signer there (signers move only in post handlers, which
 * run at a block's start), so note it now for judging the votes two blocks on (sideVotes.ts).
 */
function noteVoteSigners(s: ModelState, height: bigint): void {
  for (const [key, p] of s.pending.entries())
    if (p.height === height && p.msg.type === 'topup/MsgTopup')
      s.pending.set(key, { ...p, voteSigner: s.validator(p.msg.id)?.signer ?? null });
}

function begin(s: ModelState, input: BlockInput, b: BlockContext, parent: ParentTruth): SideOutcome[] {
  const out: SideOutcome[] = [];
  const members = s.get('validatorSet').validators;
  for (const [key, p] of s.pending.entries()) {
    if (p.height > input.height - 2n) continue;
    s.pending.delete(key);
    const votes = input.votes.filter((v) => v.txHash === p.txHash);
    const t = tally(members, votes);
    const honest =
      'txHash' in p.msg ? honestVotes(p.msg, parent.event(p.msg.txHash, p.msg.logIndex), p.voteSigner) : null;
    const badVotes = honest
      ? votes
          .filter((v) => !honest.allowed.has(v.result))
          .map((v) => ({ validator: v.validator, result: v.result, why: honest.why }))
      : [];
    const judged = { badVotes, votesJudged: honest !== null };
    if (t.result !== 'yes') {
      out.push({
        txHash: p.txHash,
        msgType: p.msg.type,
        tally: t.result,
        outcome: by('app.side-tx.post-only-on-yes', H.sideTxFailed(`the validators voted ${t.result}`)),
        disagreement: null,
        ...judged,
      });
      continue;
    }
    const branch = s.branch();
    const r = post(branch, p.msg, t.observation, b, parent);
    if (r.outcome.code === 0) branch.commit();
    out.push({
      txHash: p.txHash,
      msgType: p.msg.type,
      tally: 'yes',
      outcome: r.outcome,
      disagreement: r.disagreement,
      ...judged,
    });
  }
  return out;
}

/**
 * End block: a validator is current at the ack count when it is not jailed, has started by the
 * epoch ackCount + 1, has not reached its end epoch and has power (README item 17); the stored set
 * drops who is no longer current, takes the new powers, and adds who became current (the stored
 * proposer is not rotated by this); a change that would empty the set is not made. Then the fees
 * collected in the block go to its proposer.
 */
function end(s: ModelState, proposer: string, x: AnteContext, b: BlockContext): void {
  const epoch = s.get('ackCount') + 1n;
  const current = new Map<string, bigint>();
  for (const v of s.allValidators())
    if (!v.jailed && v.startEpoch <= epoch && (v.endEpoch === 0n || v.endEpoch > epoch) && v.power > 0n)
      current.set(v.signer, v.power);
  const set = s.set();
  const changes: Array<{ address: string; power: bigint }> = [];
  for (const m of set.validators) {
    const power = current.get(m.address);
    if (power === undefined) changes.push({ address: m.address, power: 0n });
    else if (power !== m.power) changes.push({ address: m.address, power });
  }
  for (const [address, power] of current) if (set.indexOf(address) < 0) changes.push({ address, power });
  const removed = changes.filter((c) => c.power === 0n).length;
  const added = changes.filter((c) => c.power > 0n && set.indexOf(c.address) < 0).length;
  b.effects.add('staking.set.current-validators');
  if (changes.length > 0 && set.size - removed + added > 0) {
    set.update(changes);
    s.put('validatorSet', set);
    if (added > 0) b.effects.add('staking.join.activation-epoch');
    if (removed > 0) b.effects.add('staking.exit.leaves-at-epoch');
  }
  const fees = s.balance(x.feeCollector, FEE_DENOM);
  if (fees > 0n) s.send(x.feeCollector, proposer, [{ denom: FEE_DENOM, amount: fees }]);
}
