/**
 * The checkpoint oracles: the proposer rotates by one round on each ack and no-ack (and not
 * otherwise), a no-ack needs the buffer time and a sender among the next proposers, acked
 * checkpoints are contiguous, a proposal's account root follows the dividend accounts, and an
 * acked root equals the final chain's root over its range.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Observation, type StateWrite } from '../../src/node/observations';
import { CHECKPOINT_FETCH_MS, CheckpointOracle, CheckpointRootOracle } from './checkpoints';
import { PrioritySet } from './model/proposerPriority';
import { accountLeaf, blockLeaf, merkleRoot } from './model/merkle';
import { SidechainModel } from './model/sidechainModel';
import {
  GENESIS_TIME,
  PARAMS,
  VALIDATORS,
  commit,
  genesisRef,
  hash,
  imported,
  inTurnChain,
  rec,
  serviceGenesis,
  sidechainStarted,
  tx,
} from './testing/observations';

/** The stored set's proposer after genesis and `rotations` more rounds, by the reference. */
function proposerAfter(rotations: number): Address {
  const s = PrioritySet.create(VALIDATORS.map((v) => ({ address: v.signer, power: v.power })));
  s.increment(1);
  for (let i = 0; i < rotations; i++) s.increment(1);
  return s.proposer as Address;
}

const setWrite = (proposer: Address): StateWrite => ({
  what: 'validatorSet',
  validators: VALIDATORS.map((v) => ({ address: v.signer, power: v.power, priority: 0n })),
  proposer,
  proposerPower: 10n,
  proposerPriority: 0n,
});
const T0 = Number(GENESIS_TIME) * 1000;
const BUFFER = 100_000; // serviceGenesis's checkpointBufferTimeMs

function run(obs: Observation[]): CheckpointOracle {
  const o = new CheckpointOracle();
  obs.forEach((x, i) => {
    o.observe(rec(i + 1, 'svc-1', x));
  });
  return o;
}

const ack = { txHash: hash('ack'), msgType: 'checkpoint/MsgCheckpointACK', tally: 'yes' as const, code: 0 };
const noAck = (from: Address, code = 0) =>
  tx(0, from, { type: 'checkpoint/MsgCheckpointNoACK', from }, code, `noack-${from}`);

describe('checkpoint-timeouts oracle', () => {
  it('the genesis proposer is NewValidatorSet plus one rotation; one more round per ack', () => {
    expect(run([serviceGenesis([], VALIDATORS, proposerAfter(0))]).violation).toBeNull();
    expect(run([serviceGenesis([], VALIDATORS, proposerAfter(1))]).violation?.message).toMatch(/at genesis/);
    const ok = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { sideTxs: [ack], writes: [setWrite(proposerAfter(1))] }),
    ]);
    expect(ok.violation).toBeNull();
    // An ack that rotates twice, or not at all.
    const twice = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { sideTxs: [ack], writes: [setWrite(proposerAfter(2))] }),
    ]);
    expect(twice.violation).toMatchObject({ oracle: 'checkpoint-timeouts', class: 'safety' });
    expect(twice.violation!.message).toMatch(/after height 5 \(1 ack, 0 no-acks\) the checkpoint proposer is/);
    const never = run([serviceGenesis([], VALIDATORS, proposerAfter(0)), commit(5n, { sideTxs: [ack] })]);
    expect(never.violation?.message).toMatch(/not .* by rotation/);
  });

  it('a no-ack only after the buffer time, from one of the next proposers, and it rotates', () => {
    const next = proposerAfter(1);
    const early = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { timeMs: BUFFER - 1, txs: [noAck(next)], writes: [setWrite(next)] }),
    ]);
    expect(early.violation?.message).toMatch(/no-ack at 99999 ms, 99999 ms after the last checkpoint/);
    const onTime = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { timeMs: BUFFER, txs: [noAck(next)], writes: [setWrite(next)] }),
    ]);
    expect(onTime.violation).toBeNull();
    // One buffer time elapsed: only the next proposer may send it.
    const other = VALIDATORS.map((v) => v.signer).find((a) => a !== next)!;
    const stranger = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { timeMs: BUFFER, txs: [noAck(other)], writes: [setWrite(next)] }),
    ]);
    expect(stranger.violation?.message).toMatch(/not among the next 1 proposers/);
    // Measured from the last acked checkpoint's buffer time: buffered at T0, acked, no-ack too soon.
    const afterAck = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(3n, { timeMs: T0, sideTxs: [{ ...ack, msgType: 'checkpoint/MsgCheckpoint' }] }),
      commit(5n, { timeMs: T0 + 1000, sideTxs: [ack], writes: [setWrite(proposerAfter(1))] }),
      commit(9n, { timeMs: T0 + BUFFER - 1000, txs: [noAck(proposerAfter(2))], writes: [setWrite(proposerAfter(2))] }),
    ]);
    expect(afterAck.violation?.message).toMatch(/no-ack at .* after the last checkpoint/);
  });

  it('acked checkpoints are numbered from 1 and contiguous from block 0', () => {
    const cp = (number: bigint, start: bigint, end: bigint): StateWrite => ({
      what: 'checkpoint',
      number,
      proposer: proposerAfter(0),
      startBlock: start,
      endBlock: end,
      rootHash: hash(`r${number}`),
      accountRootHash: hash('a'),
      timestampS: 0n,
    });
    const ok = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { writes: [cp(1n, 0n, 63n)] }),
      commit(9n, { writes: [cp(2n, 64n, 127n)] }),
    ]);
    expect(ok.violation).toBeNull();
    const gap = run([
      serviceGenesis([], VALIDATORS, proposerAfter(0)),
      commit(5n, { writes: [cp(1n, 0n, 63n)] }),
      commit(9n, { writes: [cp(2n, 65n, 127n)] }),
    ]);
    expect(gap.violation?.message).toMatch(/checkpoint 2 \(65..127\) does not follow 1 ending at 63/);
  });

  it("a proposal's account root covers every validator's dividend account; a wrong one fires", () => {
    const root = merkleRoot(
      VALIDATORS.map((v) => accountLeaf({ id: v.id, feeAmount: v.id === 2n ? 7n : 0n, slashedAmount: 0n })),
    );
    const proposal = (accountRootHash: `0x${string}`) =>
      tx(0, proposerAfter(0), {
        type: 'checkpoint/MsgCheckpoint',
        proposer: proposerAfter(0),
        startBlock: 0n,
        endBlock: 63n,
        rootHash: hash('root'),
        accountRootHash,
      });
    const withdrawn: StateWrite = { what: 'dividend', id: 2n, feeAmount: 7n, slashedAmount: 0n };
    const ok = run([serviceGenesis([withdrawn], VALIDATORS, proposerAfter(0)), commit(5n, { txs: [proposal(root)] })]);
    expect(ok.violation).toBeNull();
    const wrong = run([serviceGenesis([], VALIDATORS, proposerAfter(0)), commit(5n, { txs: [proposal(root)] })]);
    expect(wrong.violation?.message).toMatch(/accepted with account root .*; the dividend accounts give/);
  });
});

describe('checkpoint-roots oracle', () => {
  it("an acked root equals the final chain's root over its range", () => {
    const model = new SidechainModel(PARAMS);
    const chain = inTurnChain(8);
    const feedChain = (o: CheckpointRootOracle) => {
      model.observe(rec(0, 'sc-1', sidechainStarted()));
      for (const b of chain) model.observe(rec(1, 'sc-1', imported(b)));
      return o;
    };
    const genesis = { ...genesisRef, txHash: chain[0]!.txHash, receiptHash: chain[0]!.receiptHash };
    const root = merkleRoot([genesis, ...chain.slice(0, 4)].map((b) => blockLeaf(b)));
    const ackOf = (rootHash: `0x${string}`) =>
      commit(9n, {
        writes: [
          {
            what: 'checkpoint',
            number: 1n,
            proposer: VALIDATORS[0]!.signer,
            startBlock: 0n,
            endBlock: 4n,
            rootHash,
            accountRootHash: hash('a'),
            timestampS: 0n,
          },
        ],
      });
    const end = 2 + CHECKPOINT_FETCH_MS;
    const ok = feedChain(new CheckpointRootOracle(model));
    ok.observe(rec(2, 'svc-1', ackOf(root)));
    ok.finish(end, 'sc-1', chain[7]!.hash);
    expect(ok.violation).toBeNull();
    const bad = new CheckpointRootOracle(model);
    bad.observe(rec(2, 'svc-1', ackOf(hash('other'))));
    bad.finish(end, 'sc-1', chain[7]!.hash);
    expect(bad.violation).toMatchObject({ oracle: 'checkpoint-roots' });
    expect(bad.violation!.message).toMatch(
      /checkpoint 1 acked root .* but the final canonical chain's root of 0..4 is/,
    );
    // Acked less than a fetch period before the end: the nodes may not have learned it yet.
    const recent = new CheckpointRootOracle(model);
    recent.observe(rec(2, 'svc-1', ackOf(hash('other'))));
    recent.finish(end - 1, 'sc-1', chain[7]!.hash);
    expect(recent.violation).toBeNull();
  });
});
