/**
 * Each fault kind's start and end, on the two domains of a started network (no run): what the
 * start changes, that the end undoes exactly that, and the detail it records. `CHECKS` is keyed
 * by every kind, so a kind added without a check does not compile.
 */
import { describe, expect, it, vi } from 'vitest';
import { type Proposal } from '../../src/consensus/types';
import { MSG_REGISTRY } from '../../src/app/registry';
import { decodeTx } from '../../src/modules/auth/stdTx';
import { fromHex } from '../../src/core/bytes';
import { buildBlock, planProduction } from '../../src/sidechain/producer';
import { type Vote } from '../../src/consensus/types';
import { type Hex } from '../../src/core/bytes';
import { type NodeMessage } from '../../src/node/messages';
import { type BridgeAction } from '../../src/bridge/bridge';
import { MsgCheckpointDef } from '../../src/modules/checkpoint/msgs';
import { getValidatorSet } from '../../src/modules/staking/keeper';
import { MainDomain } from '../domain/mainDomain';
import { SidechainDomain } from '../domain/sidechainDomain';
import { runSetup } from '../domain/runSetup';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { type FaultKind, type FaultSpec, applyFault, faultSides } from './registry';
import { type FaultSite } from './fault';
import { BYZANTINE_BLOCKS, type ByzantineBlock, FUTURE_AHEAD_S } from './byzantineBlocks';

function network(): { main: MainDomain; sc: SidechainDomain; scenario: Scenario } {
  const scenario = { ...loadScenario('smoke').scenario, faults: [] };
  const opts = { untilMs: 60_000, sampleEveryMs: 60_000 };
  const main = new MainDomain(scenario, 1, opts);
  const sc = new SidechainDomain(scenario, 1, opts, runSetup(scenario, 1));
  main.begin();
  sc.begin();
  return { main, sc, scenario };
}

type Net = ReturnType<typeof network>;

/** Start `f` where it applies (every domain of its sides), run `during`, end it, run `after`. */
function startEnd(net: Net, f: FaultSpec, during: (details: string[]) => void, after: () => void, index = 0): void {
  const sites: FaultSite[] = [];
  const sides = faultSides(f);
  if (sides.has('service')) sites.push({ name: 'main', domain: net.main });
  if (sides.has('sidechain')) sites.push({ name: 'sidechain', domain: net.sc });
  during(sites.map((s) => applyFault(f, s, { start: true, index })));
  for (const s of sites) applyFault(f, s, { start: false, index });
  after();
}

/** The in-turn producer's child of `node`'s head, sealed and imported by `node` (a sidechain fault's trigger). */
function inTurnChildImported(net: Net, node: Net['sc']['sidechainNodes'][number]) {
  const inTurn = net.sc.setup.keys[net.sc.inTurnValidator() - 1]!;
  const plan = planProduction(node.chain.cfg, node.chain.head(), inTurn.signer)!;
  const block = buildBlock(
    node.chain,
    plan,
    inTurn.signerKey,
    inTurn.signer,
    { span: () => null, stateSyncs: () => [], txs: [] },
    plan.timeS,
  );
  const result = node.chain.import(block, plan.timeS, 0);
  expect(result.status).toBe('imported');
  return { block, plan, result };
}

const vote = (net: Net, v: number, blockHash: Hex | null): Vote => ({
  type: 'prevote',
  height: 1n,
  round: 0,
  blockHash,
  validator: net.main.keys[v - 1]!.signer,
  signature: '0x' as Hex,
});

/** A Byzantine node's signing tools as the fault sees them (the signatures are markers). */
const tools = {
  signVote: (v: Omit<Vote, 'signature'>): Vote => ({ ...v, signature: '0x01' as Hex }),
  signProposal: (p: Omit<Proposal, 'signature'>): Proposal => ({ ...p, signature: '0x02' as Hex }),
  peers: ['svc-2', 'svc-3', 'svc-4'],
};

function proposalOf(net: Net, v: number, round = 0): Extract<NodeMessage, { kind: 'c.proposal' }> {
  const block = {
    height: 1n,
    timeMs: 5,
    proposer: net.main.keys[v - 1]!.signer,
    lastBlockHash: `0x${'00'.repeat(32)}` as Hex,
    lastAppHash: `0x${'00'.repeat(32)}` as Hex,
    lastCommit: [],
    txs: [],
  };
  return {
    kind: 'c.proposal',
    proposal: {
      height: 1n,
      round,
      blockHash: `0x${'cd'.repeat(32)}` as Hex,
      polRound: -1,
      proposer: block.proposer,
      block,
      signature: '0x03' as Hex,
    },
  };
}

/** Routes of `validator`'s node for `msg`, many times over (the coalition kinds draw at random). */
function routesOf(net: Net, validator: number, msgs: NodeMessage[]) {
  const node = net.main.serviceNodes[validator - 1]!;
  return msgs.map((m) => node.hooks.byzantineRoutes!(node, m, tools));
}

const CHECKS: Record<FaultKind, (net: Net) => void> = {
  crash: (net) =>
    startEnd(
      net,
      { kind: 'crash', node: 'svc-2', atMs: 0, forMs: 1000 },
      (d) => {
        expect(d).toEqual(['svc-2']);
        expect(net.main.slot('svc-2').alive).toBe(false);
        expect(net.main.serviceNodes[1]!.isAlive).toBe(false);
      },
      () => expect(net.main.slot('svc-2').alive && net.main.serviceNodes[1]!.isAlive).toBe(true),
    ),
  pause: (net) =>
    startEnd(
      net,
      { kind: 'pause', node: 'sc-3', atMs: 0, forMs: 5000 },
      (d) => {
        expect(d).toEqual(['sc-3']);
        expect(net.sc.slot('sc-3')).toMatchObject({ paused: true, pausedUntilMs: net.sc.engine.nowMs() + 5000 });
      },
      () => expect(net.sc.slot('sc-3').paused).toBe(false),
    ),
  partition: (net) =>
    startEnd(
      net,
      {
        kind: 'partition',
        groups: [
          ['svc-1', 'sc-1'],
          ['svc-2', 'sc-2'],
        ],
        atMs: 0,
      },
      (d) => {
        expect(d).toEqual(['svc-1+sc-1 | svc-2+sc-2', 'svc-1+sc-1 | svc-2+sc-2']);
        expect(net.main.network.isBlocked('svc-1', 'svc-2')).toBe(true);
        expect(net.main.network.isBlocked('svc-2', 'svc-1')).toBe(true);
        expect(net.sc.network.isBlocked('sc-2', 'sc-1')).toBe(true);
        expect(net.main.network.isBlocked('svc-1', 'svc-3')).toBe(false);
      },
      () => {
        expect(net.main.network.isBlocked('svc-1', 'svc-2')).toBe(false);
        expect(net.sc.network.isBlocked('sc-2', 'sc-1')).toBe(false);
      },
    ),
  link: (net) =>
    startEnd(
      net,
      { kind: 'link', from: ['svc-1'], to: ['svc-2'], link: { loss: 0.5 }, atMs: 0 },
      (d) => {
        expect(d).toEqual(['svc-1 -> svc-2']);
        expect(net.main.network.modelOf('svc-1', 'svc-2').loss).toBe(0.5);
        expect(net.main.network.modelOf('svc-2', 'svc-1').loss).toBe(0);
      },
      () => expect(net.main.network.modelOf('svc-1', 'svc-2').loss).toBe(0),
    ),
  clockSkew: (net) =>
    startEnd(
      net,
      { kind: 'clockSkew', node: 'sc-2', skewMs: -2000, atMs: 0 },
      (d) => {
        expect(d).toEqual(['sc-2 -2000ms']);
        const s = net.sc.slot('sc-2');
        expect(s.ctx.nowMs()).toBe(net.sc.engine.nowMs() + net.scenario.epochMs - 2000);
      },
      () => expect(net.sc.slot('sc-2').skewMs).toBe(0),
    ),
  offlineProducer: (net) => {
    const inTurn = net.sc.inTurnValidator();
    startEnd(
      net,
      { kind: 'offlineProducer', validator: 'inTurn', atMs: 0 },
      (d) => {
        expect(d).toEqual([`validator ${inTurn}`]);
        expect(net.sc.producerFaults.get(inTurn)?.has('offline')).toBe(true);
      },
      () => expect(net.sc.producerFaults.get(inTurn)?.has('offline')).toBe(false),
    );
  },
  slowProducer: (net) =>
    startEnd(
      net,
      { kind: 'slowProducer', validator: 2, delayS: 6, atMs: 0 },
      (d) => {
        expect(d).toEqual(['validator 2 +6s']);
        expect(net.sc.producerFaults.get(2)?.has('slow')).toBe(true);
        expect(net.sc.slowProducerDelayS.get(2)).toBe(6);
      },
      () => expect(net.sc.producerFaults.get(2)?.has('slow')).toBe(false),
    ),
  isolateProducer: (net) =>
    startEnd(
      net,
      { kind: 'isolateProducer', validator: 3, atMs: 0 },
      (d) => {
        expect(d).toEqual(['validator 3']);
        for (const o of ['sc-1', 'sc-2', 'sc-4']) {
          expect(net.sc.network.isBlocked('sc-3', o)).toBe(true);
          expect(net.sc.network.isBlocked(o, 'sc-3')).toBe(true);
        }
        expect(net.sc.network.isBlocked('sc-1', 'sc-2')).toBe(false);
      },
      () => {
        expect(net.sc.network.isBlocked('sc-3', 'sc-1')).toBe(false);
        // The healed connections open again: the first node of each pair sends its status.
        const sent = vi.spyOn(net.sc.network, 'send');
        net.sc.engine.run({ untilMs: net.sc.engine.nowMs() });
        const statuses = sent.mock.calls.filter((c) => (c[2] as NodeMessage).kind === 'sc.status');
        expect(statuses.map((c) => `${c[0]}>${c[1]}`)).toEqual(['sc-1>sc-3', 'sc-2>sc-3', 'sc-3>sc-4']);
        expect(statuses.every((c) => (c[2] as Extract<NodeMessage, { kind: 'sc.status' }>).answer === false)).toBe(
          true,
        );
      },
    ),
  offlineCheckpointProposer: (net) => {
    const proposer = getValidatorSet(net.main.serviceNodes[0]!.app.store).proposer.address;
    const id = `svc-${net.main.keys.find((k) => k.signer === proposer)!.index}`;
    startEnd(
      net,
      { kind: 'offlineCheckpointProposer', atMs: 0 },
      (d) => {
        expect(d).toEqual([id]);
        expect(net.main.slot(id).alive).toBe(false);
      },
      () => expect(net.main.slot(id).alive).toBe(true),
    );
  },
  equivocatingProducer: (net) =>
    startEnd(
      net,
      { kind: 'equivocatingProducer', validator: 1, atMs: 0 },
      () => expect(net.sc.producerFaults.get(1)?.has('equivocate')).toBe(true),
      () => expect(net.sc.producerFaults.get(1)?.has('equivocate')).toBe(false),
    ),
  earlySeal: (net) =>
    startEnd(
      net,
      { kind: 'earlySeal', validator: 4, atMs: 0 },
      () => expect(net.sc.producerFaults.get(4)?.has('earlySeal')).toBe(true),
      () => expect(net.sc.producerFaults.get(4)?.has('earlySeal')).toBe(false),
    ),
  oneWayPartition: (net) =>
    startEnd(
      net,
      { kind: 'oneWayPartition', from: ['sc-1'], to: ['sc-2', 'svc-1'], atMs: 0 },
      (d) => {
        expect(d).toEqual(['sc-1 -> sc-2+svc-1']);
        expect(net.sc.network.isBlocked('sc-1', 'sc-2')).toBe(true);
        expect(net.sc.network.isBlocked('sc-1', 'svc-1')).toBe(true);
        expect(net.sc.network.isBlocked('sc-2', 'sc-1')).toBe(false);
      },
      () => expect(net.sc.network.isBlocked('sc-1', 'sc-2')).toBe(false),
    ),
  doubleSign: (net) => {
    const node = net.main.serviceNodes[1]!;
    const sign = (v: Omit<Vote, 'signature'>): Vote => ({ ...v, signature: '0x01' as Hex });
    const mine = vote(net, 2, `0x${'ab'.repeat(32)}` as Hex);
    startEnd(
      net,
      { kind: 'doubleSign', validator: 2, atMs: 0 },
      (d) => {
        expect(d).toEqual(['validator 2']);
        const extra = node.hooks.onOwnVote!(mine, sign);
        expect(extra).toHaveLength(1);
        expect(extra[0]!.blockHash).not.toBe(mine.blockHash);
        expect(extra[0]).toMatchObject({ type: 'prevote', height: 1n, round: 0, validator: mine.validator });
        // A nil vote has no other block to vote for.
        expect(node.hooks.onOwnVote!(vote(net, 2, null), sign)).toEqual([]);
        // Only the faulty validator.
        expect(net.main.serviceNodes[0]!.hooks.onOwnVote!(vote(net, 1, mine.blockHash), sign)).toEqual([]);
      },
      () => expect(node.hooks.onOwnVote!(mine, sign)).toEqual([]),
    );
  },
  byzantineValidators: (net) => {
    const node = net.main.serviceNodes[0]!;
    const proposal = proposalOf(net, 1);
    startEnd(
      net,
      { kind: 'byzantineValidators', validators: [1, 3], atMs: 0 },
      (d) => {
        expect(d).toEqual(['validators 1, 3']);
        const routes = node.hooks.byzantineRoutes!(node, proposal, tools)!;
        // Honest validators 2 and 4 are dealt into two halves: the first (and the coalition) gets the block, the second its twin.
        expect(routes.map((r) => r.to)).toEqual([['svc-2', 'svc-3'], ['svc-4']]);
        expect(routes[0]!.msg).toBe(proposal);
        const twin = routes[1]!.msg;
        expect(twin.kind === 'c.proposal' && twin.proposal.blockHash).not.toBe(proposal.proposal.blockHash);
        expect(net.main.serviceNodes[1]!.hooks.byzantineRoutes!(node, proposal, tools)).toBeNull();
      },
      () => expect(node.hooks.byzantineRoutes!(node, proposal, tools)).toBeNull(),
    );
  },
  roundShift: (net) => {
    const votes: NodeMessage[] = Array.from({ length: 40 }, (_, i) => ({
      kind: 'c.vote',
      vote: { ...vote(net, 2, `0x${'ab'.repeat(32)}` as Hex), round: i % 3 },
    }));
    startEnd(
      net,
      { kind: 'roundShift', validators: [2], atMs: 0 },
      (d) => {
        expect(d).toEqual(['validators 2']);
        const routed = routesOf(net, 2, votes);
        const mutated = routed.filter((r) => r !== null);
        // Half of the time, more or less; each: the original to the rest, a re-signed copy one round off to a part.
        expect(mutated.length).toBeGreaterThan(5);
        expect(mutated.length).toBeLessThan(35);
        for (const [i, r] of routed.entries()) {
          if (r === null) continue;
          const [rest, part] = r;
          expect(rest!.msg).toBe(votes[i]);
          expect(part!.to.length).toBeGreaterThan(0);
          expect([...rest!.to, ...part!.to].sort()).toEqual(tools.peers);
          const orig = (votes[i] as Extract<NodeMessage, { kind: 'c.vote' }>).vote;
          const shifted = (part!.msg as Extract<NodeMessage, { kind: 'c.vote' }>).vote;
          expect(Math.abs(shifted.round - orig.round)).toBe(1);
          expect(shifted).toMatchObject({ blockHash: orig.blockHash, validator: orig.validator, signature: '0x01' });
        }
      },
      () => expect(routesOf(net, 2, votes).every((r) => r === null)).toBe(true),
    );
  },
  replayMessages: (net) => {
    const msgs: NodeMessage[] = Array.from({ length: 30 }, (_, i) => ({
      kind: 'c.vote',
      vote: { ...vote(net, 1, null), round: i },
    }));
    startEnd(
      net,
      { kind: 'replayMessages', validators: [1], atMs: 0 },
      () => {
        const routed = routesOf(net, 1, msgs);
        const replays = routed.flatMap((r, i) => (r === null ? [] : [{ i, r }]));
        expect(replays.length).toBeGreaterThan(3);
        for (const { i, r } of replays) {
          // Everyone gets the message itself; a part also gets an earlier one, as it was signed.
          expect(r[0]).toEqual({ to: tools.peers, msg: msgs[i] });
          expect(msgs.slice(0, i)).toContain(r[1]!.msg);
        }
      },
      () => expect(routesOf(net, 1, msgs).every((r) => r === null)).toBe(true),
    );
    // A proposer in a later round proposes its earlier block again, with no POL round.
    startEnd(
      net,
      { kind: 'replayMessages', validators: [1], atMs: 0 },
      () => {
        const first = proposalOf(net, 1, 0);
        routesOf(net, 1, [first]);
        const later = proposalOf(net, 1, 2);
        later.proposal = { ...later.proposal, blockHash: `0x${'ef'.repeat(32)}` as Hex, polRound: 1 };
        const again = routesOf(
          net,
          1,
          Array.from({ length: 20 }, () => later),
        )
          .flatMap((r) => r ?? [])
          .map((x) => x.msg)
          .filter(
            (m) =>
              m.kind === 'c.proposal' && m.proposal.blockHash === first.proposal.blockHash && m.proposal.round === 2,
          );
        expect(again.length).toBeGreaterThan(0);
        for (const m of again)
          expect(m.kind === 'c.proposal' && m.proposal).toMatchObject({ round: 2, polRound: -1, signature: '0x02' });
      },
      () => {},
      1,
    );
  },
  splitVote: (net) => {
    const proposal = proposalOf(net, 3);
    startEnd(
      net,
      { kind: 'splitVote', validators: [3], atMs: 0 },
      () => {
        const routed = routesOf(
          net,
          3,
          Array.from({ length: 20 }, () => proposal),
        ).filter((r) => r !== null);
        expect(routed.length).toBeGreaterThan(3);
        const twin = routed[0]![1]!.msg as Extract<NodeMessage, { kind: 'c.proposal' }>;
        expect(twin.proposal.block.timeMs).toBe(proposal.proposal.block.timeMs + 1);
        // A vote for the block goes to part of the network as a vote for the twin.
        const own: NodeMessage = { kind: 'c.vote', vote: vote(net, 3, proposal.proposal.blockHash) };
        const voted = routesOf(
          net,
          3,
          Array.from({ length: 20 }, () => own),
        ).filter((r) => r !== null);
        expect(voted.length).toBeGreaterThan(3);
        for (const r of voted) {
          expect(r[0]!.msg).toBe(own);
          const other = (r[1]!.msg as Extract<NodeMessage, { kind: 'c.vote' }>).vote;
          expect(other.blockHash).toBe(twin.proposal.blockHash);
        }
      },
      () => expect(routesOf(net, 3, [proposal])[0]).toBeNull(),
    );
  },
  byzantineTxs: (net) => {
    const node = net.main.serviceNodes[2]!;
    const sent = vi.spyOn(net.main, 'sendTxFrom');
    const commit = { block: { ...proposalOf(net, 1).proposal.block }, blockHash: '0x' as Hex, commit: [] };
    const end = { validatorUpdates: [], sideTxResults: [] };
    startEnd(
      net,
      {
        kind: 'byzantineTxs',
        validator: 3,
        txs: ['earlyNoAck', 'spanOutOfSequence'],
        everyBlocks: 2,
        perBlock: 2,
        atMs: 0,
      },
      (d) => {
        expect(d).toEqual(['validator 3: earlyNoAck, spanOutOfSequence']);
        // Its block starts with what it crafted (the span with a gap; a no-ack would be on time), then what it reaped.
        const reaped = ['0x7b7d' as Hex];
        const txs = node.hooks.blockTxs!(node, reaped, { height: 1n, timeMs: net.scenario.epochMs + 1000 })!;
        expect(txs.length).toBe(2);
        expect(txs[1]).toBe(reaped[0]);
        expect(decodeTx(fromHex(txs[0]!), MSG_REGISTRY).def.type).toBe('sidechain/MsgProposeSpan');
        for (let i = 0; i < 4; i++) node.hooks.onCommit!(node, commit, end, []);
        // Every second commit, signed by validator 3: a span with a gap. No checkpoint is acked yet,
        // so a no-ack would be on time: none is sent (the sender only sends what is wrong).
        expect(sent.mock.calls.map((c) => c[0])).toEqual([3, 3]);
        const msgs = sent.mock.calls.map((c) => decodeTx(fromHex(c[1]), MSG_REGISTRY));
        expect(msgs.map((t) => t.def.type)).toEqual(['sidechain/MsgProposeSpan', 'sidechain/MsgProposeSpan']);
        const span = msgs[0]!.msg as { spanId: bigint; startBlock: bigint; proposer: string };
        expect(span.spanId).toBe(1n);
        expect(span.proposer).toBe(net.main.keys[2]!.signer);
        expect(span.startBlock).toBeGreaterThan(net.scenario.params.firstSpanDuration);
      },
      () => {
        for (let i = 0; i < 4; i++) node.hooks.onCommit!(node, commit, end, []);
        expect(sent).toHaveBeenCalledTimes(2);
        expect(node.hooks.blockTxs!(node, [], { height: 2n, timeMs: net.scenario.epochMs + 3000 })).toBeNull();
      },
    );
  },
  outsiderBlocks: (net) => {
    const node = net.sc.sidechainNodes[0]!;
    const { block, plan, result } = inTurnChildImported(net, node);
    const sent = vi.spyOn(net.sc.network, 'send');
    startEnd(
      net,
      { kind: 'outsiderBlocks', everyBlocks: 1, atMs: 0 },
      () => {
        node.hooks.onImport!(node, block, result, 0);
        // Every sidechain node gets one block, a child of the head sealed by a non-producer as if in turn.
        expect(sent.mock.calls.map((c) => c[1])).toEqual(net.sc.sidechainNodes.map((n) => n.id));
        const sealed = (sent.mock.calls[0]![2] as Extract<NodeMessage, { kind: 'sc.newBlock' }>).block;
        expect(sealed.header.parentHash).toBe(block.hash);
        expect(node.chain.get(block.hash)!.snapshot.validatorSet.hasAddress(sealed.signer)).toBe(false);
        expect(sealed.header.difficulty).toBe(BigInt(node.chain.get(block.hash)!.snapshot.validatorSet.size));
        // Honest nodes refuse it.
        const r = net.sc.sidechainNodes[1]!.chain.import(block, plan.timeS, 0);
        expect(r.status).toBe('imported');
        expect(net.sc.sidechainNodes[1]!.chain.import(sealed, sealed.header.time, 0)).toMatchObject({
          status: 'rejected',
          reason: expect.stringMatching(/is not a part of the producer set/),
        });
      },
      () => {
        sent.mockClear();
        node.hooks.onImport!(node, block, result, 0);
        expect(sent).not.toHaveBeenCalled();
      },
    );
  },
  byzantineBlocks: (net) => {
    const node = net.sc.sidechainNodes[0]!;
    const honest = net.sc.sidechainNodes[1]!;
    const { block, plan, result } = inTurnChildImported(net, node);
    expect(honest.chain.import(block, plan.timeS, 0).status).toBe('imported');
    // A backup producer (its own delay is longer than the period, so a block too soon can be made).
    const validator = (net.sc.inTurnValidator() % net.sc.setup.keys.length) + 1;
    // What Bor says of each (the kinds that need a sprint end are judged in a run: sidechainRefused.test.ts).
    const reasons: Partial<Record<ByzantineBlock, RegExp>> = {
      wrongNumber: /number does not follow/,
      wrongHash: /hash does not match the header/,
      wrongSigner: /seal does not recover to the claimed signer/,
      wrongDifficulty: /Wrong difficulty/,
      beforePeriod: /invalid timestamp/,
      tooSoon: /was created too soon/,
      wrongBaseFee: /invalid baseFee/,
      wrongGasLimit: /gas limit differs/,
      wrongGasUsed: /invalid gas used/,
      wrongTxRoot: /transaction or receipt root mismatch/,
      wrongReceiptRoot: /transaction or receipt root mismatch/,
      wrongBloom: /invalid bloom/,
      wrongStateRoot: /state root mismatch/,
      extraValidators: /errExtraValidators/,
      shortExtra: /signature suffix missing/,
      unreadableExtra: /^block 2: header\.extraData/,
    };
    for (const kind of BYZANTINE_BLOCKS) {
      if (kind === 'wrongSpanValidators') continue;
      const sent = vi.spyOn(net.sc.network, 'send');
      sent.mockClear();
      startEnd(
        net,
        { kind: 'byzantineBlocks', validator, blocks: [kind], everyBlocks: 1, atMs: 0 },
        () => {
          node.hooks.onImport!(node, block, result, 0);
          expect(
            sent.mock.calls.map((c) => c[1]),
            kind,
          ).toEqual(net.sc.sidechainNodes.map((n) => n.id));
          const crafted = (sent.mock.calls[0]![2] as Extract<NodeMessage, { kind: 'sc.newBlock' }>).block;
          expect(crafted.header.parentHash, kind).toBe(block.hash);
          // Never the block the producer's own node seals honestly (zero vanity): a craft that keeps
          // the header (a wrong claimed signer) would otherwise share that block's hash.
          if (kind !== 'shortExtra' && kind !== 'unreadableExtra')
            expect(crafted.header.extraData.slice(2, 66), kind).toBe('bb'.repeat(32));
          if (kind === 'fromFuture') {
            // Held until its time, and good then: only its time was wrong.
            expect(crafted.header.time - block.header.time).toBeGreaterThan(FUTURE_AHEAD_S);
            expect(honest.chain.import(crafted, crafted.header.time - 1n, 0).status).toBe('future');
            expect(honest.chain.import(crafted, crafted.header.time, 0).status).toBe('imported');
            return;
          }
          expect(honest.chain.import(crafted, crafted.header.time, 0), kind).toMatchObject({
            status: 'rejected',
            reason: expect.stringMatching(reasons[kind]!),
          });
        },
        () => {
          sent.mockClear();
          node.hooks.onImport!(node, block, result, 0);
          expect(sent).not.toHaveBeenCalled();
        },
      );
      sent.mockRestore();
    }
  },
  lateCheckpoint: (net) => {
    const node = net.main.serviceNodes[0]!;
    const root = `0x${'ab'.repeat(32)}` as Hex;
    const tools = { rootHash: vi.fn((_s: bigint, _e: bigint): Hex | null => root) };
    const msg = {
      proposer: node.address,
      startBlock: 0n,
      endBlock: 15n,
      rootHash: `0x${'cd'.repeat(32)}` as Hex,
      accountRootHash: root,
    };
    const propose: BridgeAction = { kind: 'tx', key: 'checkpoint/0/15', def: MsgCheckpointDef, msg };
    const submit = (startBlock: bigint): BridgeAction => ({
      kind: 'parentCall',
      key: `submit/${startBlock}`,
      call: {
        method: 'submitCheckpoint',
        from: node.address,
        checkpoint: { ...msg, startBlock, endBlock: startBlock + 7n, sidechainChainId: '15001' },
        signatures: [],
      },
    });
    startEnd(
      net,
      { kind: 'lateCheckpoint', validator: 1, length: 8, atMs: 0 },
      (d) => {
        expect(d).toEqual(['validator 1, 8-block checkpoints submitted late']);
        // Its proposal covers 8 blocks, with the sidechain's root of that range.
        const [p] = node.hooks.bridgeActions!(node, [propose], tools)!;
        expect(tools.rootHash).toHaveBeenCalledWith(0n, 7n);
        expect(p).toMatchObject({ kind: 'tx', msg: { startBlock: 0n, endBlock: 7n, rootHash: root } });
        // A submission that is not the next record's is dropped; the next one goes out at once when
        // the buffer does not hold it (nothing is buffered here).
        expect(node.hooks.bridgeActions!(node, [submit(8n)], tools)).toEqual([]);
        expect(node.hooks.bridgeActions!(node, [submit(0n)], tools)).toEqual([submit(0n)]);
        expect(node.hooks.bridgeActions!(node, [], tools)).toEqual([]);
      },
      () => expect(node.hooks.bridgeActions!(node, [propose], tools)).toBeNull(),
    );
  },
  setHead: (net) => {
    const at = vi.spyOn(net.sc.engine, 'at');
    const head = net.sc.sidechainNodes[1]!.chain.head().block.header.number;
    startEnd(
      net,
      { kind: 'setHead', node: 'sc-2', number: 0n, blocks: null, atMs: 0 },
      (d) => {
        expect(d).toEqual([`sc-2 to 0 (head ${head})`]);
        // The console's message, to that node alone, now.
        expect(at.mock.calls.map((c) => c.slice(1))).toEqual([
          ['net.deliver', 'sc-2', { kind: 'op.setHead', number: 0n }, 'operator'],
        ]);
      },
      // Its end sends nothing.
      () => expect(at).toHaveBeenCalledTimes(1),
    );
  },
};

describe('each fault kind starts and ends on a started network', () => {
  for (const [kind, check] of Object.entries(CHECKS)) it(kind, () => check(network()));
});
