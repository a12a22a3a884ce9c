/**
 * Each fault kind's start and end, on the two domains of a started network (no run): what the
 * start changes, that the end undoes exactly that, and the detail it records. `CHECKS` is keyed
 * by every kind, so a kind added without a check does not compile.
 */
import { describe, expect, it } from 'vitest';
import { type Vote } from '../../src/consensus/types';
import { type Hex } from '../../src/core/bytes';
import { type NodeMessage } from '../../src/node/messages';
import { getValidatorSet } from '../../src/modules/staking/keeper';
import { Cluster } from '../cluster';
import { SidechainDomain } from '../domain/sidechainDomain';
import { clusterSetup } from '../domain/clusterSetup';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { type FaultKind, type FaultSpec, applyFault, faultSides } from './registry';
import { type FaultSite } from './fault';

function network(): { main: Cluster; sc: SidechainDomain; scenario: Scenario } {
  const scenario = { ...loadScenario('smoke').scenario, faults: [] };
  const opts = { untilMs: 60_000, sampleEveryMs: 60_000 };
  const main = new Cluster(scenario, 1, opts);
  const sc = new SidechainDomain(scenario, 1, opts, clusterSetup(scenario, 1));
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

const vote = (net: Net, v: number, blockHash: Hex | null): Vote => ({
  type: 'prevote',
  height: 1n,
  round: 0,
  blockHash,
  validator: net.main.keys[v - 1]!.signer,
  signature: '0x' as Hex,
});

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
      () => expect(net.sc.network.isBlocked('sc-3', 'sc-1')).toBe(false),
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
    const tools = {
      signVote: (v: Omit<Vote, 'signature'>): Vote => ({ ...v, signature: '0x01' as Hex }),
      signProposal: (p: Omit<Extract<NodeMessage, { kind: 'c.proposal' }>['proposal'], 'signature'>) => ({
        ...p,
        signature: '0x02' as Hex,
      }),
      peers: ['svc-2', 'svc-3', 'svc-4'],
    };
    const block = {
      height: 1n,
      timeMs: 5,
      proposer: net.main.keys[0]!.signer,
      lastBlockHash: `0x${'00'.repeat(32)}` as Hex,
      lastAppHash: `0x${'00'.repeat(32)}` as Hex,
      lastCommit: [],
      txs: [],
    };
    const proposal: NodeMessage = {
      kind: 'c.proposal',
      proposal: {
        height: 1n,
        round: 0,
        blockHash: `0x${'cd'.repeat(32)}` as Hex,
        polRound: -1,
        proposer: block.proposer,
        block,
        signature: '0x03' as Hex,
      },
    };
    startEnd(
      net,
      { kind: 'byzantineValidators', validators: [1, 3], atMs: 0 },
      (d) => {
        expect(d).toEqual(['validators 1, 3']);
        const routes = node.hooks.byzantineRoutes!(node, proposal, tools)!;
        // The odd half gets the block, the even half its twin.
        expect(routes.map((r) => r.to)).toEqual([['svc-3'], ['svc-2', 'svc-4']]);
        const twin = routes[1]!.msg;
        expect(twin.kind === 'c.proposal' && twin.proposal.blockHash).not.toBe(proposal.proposal.blockHash);
        expect(net.main.serviceNodes[1]!.hooks.byzantineRoutes!(node, proposal, tools)).toBeNull();
      },
      () => expect(node.hooks.byzantineRoutes!(node, proposal, tools)).toBeNull(),
    );
  },
};

describe('each fault kind starts and ends on a started network', () => {
  for (const [kind, check] of Object.entries(CHECKS)) it(kind, () => check(network()));
});
