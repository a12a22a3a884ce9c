/**
 * A scenario file to a Scenario (scenario.ts): the JSON Schema first (schemaCheck.ts), then the
 * conversions and the checks the schema cannot make, each error naming the field.
 */
import { InputError } from '../../src/core/errors';
import { METRIC_NAMES } from '../core/metricNames';
import { durationText } from '../../src/core/duration';
import { parseUint } from '../../src/core/amount';
import { type LinkModel, DEFAULT_LINK } from '../core/linkModel';
import { Reader, type Obj, decodeLink, describeValue } from '../core/reader';
import { checkScenarioSchema } from './schemaCheck';
import { MAX_DEV_ACCOUNTS, MAX_VALIDATORS } from '../core/schemaParts';
import { decodeFault } from '../faults/registry';
import { parsePlant } from '../../src/core/plants';
import { DEFAULT_STAKE_DISTRIBUTION, type StakeDistribution, drawStakes } from './stakeDistribution';
import { BYZANTINE_TXS } from '../faults/byzantineTxs';
import { BALANCE_OVERRIDE_FIELDS, decodeBalanceOverride } from './balanceOverrides';

import {
  type Expectations,
  type Scenario,
  type ScenarioParams,
  type Verdict,
  type WorkloadSpec,
  DEFAULT_PARAMS,
  defaultMaxEvents,
  MESSAGE_TYPES,
} from './scenario';
import { type Repeats } from './repeats';
import { decodeBuggify } from './buggify';

const TOP_KEYS = [
  '$schema',
  'name',
  'description',
  'crypto',
  'duration',
  'maxEvents',
  'epoch',
  'validators',
  'params',
  'network',
  'faults',
  'workload',
  'expect',
  'plant',
  'seed',
  'streams',
  'buggify',
];

/**
 * A scenario file to a scenario. The JSON Schema (schema.ts) validates it first and names the
 * first bad field; the code then converts it (durations, amounts, defaults) and checks what the
 * schema cannot: node ids of this scenario, validator indexes within this set, multiples of the
 * sprint, units, faults that start before the end. Where the schema leaves the wording to the code
 * (`x-code`), the code's error stands; if the code finds nothing to say, the schema's does.
 */
export function decodeScenario(value: unknown): Scenario {
  const refused = checkScenarioSchema(value);
  if (refused && !refused.byCode) throw refused.error;
  const scenario = decodeChecked(value);
  if (refused) throw refused.error;
  return scenario;
}

function decodeChecked(value: unknown): Scenario {
  const r = new Reader('');
  const o = r.obj(value);
  r.noExtra(o, TOP_KEYS);
  const name = r.str(o, 'name');
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name))
    throw new InputError('name', `use lower-case letters, digits, '.', '_' or '-', got ${describeValue(name)}`);
  const crypto = r.str(o, 'crypto', 'fast');
  if (crypto !== 'real' && crypto !== 'fast')
    throw new InputError('crypto', `expected "real" or "fast", got ${describeValue(crypto)}`);

  const validators = decodeValidators(r.child('validators'), o.validators);

  const pr = r.child('params');
  const po = o.params === undefined ? {} : pr.obj(o.params);
  pr.noExtra(po, [
    ...Object.keys(DEFAULT_PARAMS).filter((k) => !k.endsWith('Ms')),
    'checkpointBufferTime',
    'parentBlockTime',
    'commitTimeout',
    'relayDelayPerRank',
    'sendEnabled',
    'sidechainDevAccounts',
  ]);
  const D = DEFAULT_PARAMS;
  const params: ScenarioParams = {
    producerCount: pr.int(po, 'producerCount', D.producerCount, 1, MAX_VALIDATORS),
    sprint: pr.int(po, 'sprint', D.sprint, 1, 4096),
    spanDuration: pr.int(po, 'spanDuration', D.spanDuration, 1),
    firstSpanDuration: pr.int(po, 'firstSpanDuration', D.firstSpanDuration, 1),
    checkpointBufferTimeMs: pr.duration(po, 'checkpointBufferTime', D.checkpointBufferTimeMs),
    checkpointLength: pr.int(po, 'checkpointLength', D.checkpointLength, 2, 1024),
    sidechainConfirmations: pr.int(po, 'sidechainConfirmations', D.sidechainConfirmations, 0, 1000),
    parentConfirmations: pr.int(po, 'parentConfirmations', D.parentConfirmations, 0, 1000),
    parentBlockTimeMs: pr.duration(po, 'parentBlockTime', D.parentBlockTimeMs),
    periodS: pr.int(po, 'periodS', D.periodS, 1, 3600),
    producerDelayS: pr.int(po, 'producerDelayS', D.producerDelayS, 0, 3600),
    backupMultiplierS: pr.int(po, 'backupMultiplierS', D.backupMultiplierS, 0, 3600),
    stateSyncDelayS: pr.int(po, 'stateSyncDelayS', D.stateSyncDelayS, 0, 86400),
    commitTimeoutMs: pr.duration(po, 'commitTimeout', D.commitTimeoutMs),
    relayDelayPerRankMs: pr.duration(po, 'relayDelayPerRank', D.relayDelayPerRankMs),
    // The parent chain stakes every genesis validator in a slot: by default there are enough for the set.
    validatorSlots: pr.int(po, 'validatorSlots', Math.max(D.validatorSlots, validators.length), 1, 1000),
    jitter: pr.bool(po, 'jitter', D.jitter),
    ...(po.sendEnabled !== undefined ? { sendEnabled: pr.bool(po, 'sendEnabled', true) } : {}),
    ...(po.sidechainDevAccounts !== undefined
      ? { sidechainDevAccounts: pr.int(po, 'sidechainDevAccounts', 0, 0, MAX_DEV_ACCOUNTS) }
      : {}),
  };
  if (po.producerCount !== undefined && params.producerCount > validators.length)
    throw new InputError(
      'params.producerCount',
      `must not exceed the number of validators (${validators.length}), got ${params.producerCount}`,
    );
  if (params.validatorSlots < validators.length)
    throw new InputError(
      'params.validatorSlots',
      `must be at least the number of validators (${validators.length}): the parent chain stakes each in a slot, got ${params.validatorSlots}`,
    );
  if (params.spanDuration % params.sprint !== 0)
    throw new InputError('params.spanDuration', `must be a multiple of params.sprint (${params.sprint})`);
  if (params.firstSpanDuration % params.sprint !== 0)
    throw new InputError('params.firstSpanDuration', `must be a multiple of params.sprint (${params.sprint})`);
  if (params.checkpointBufferTimeMs < 1000) throw new InputError('params.checkpointBufferTime', 'must be at least 1s');
  if (params.parentBlockTimeMs < 1) throw new InputError('params.parentBlockTime', 'must be positive');

  const network = decodeLink(r.child('network'), o.network, DEFAULT_LINK) as LinkModel;
  const nodeIds = new Set<string>(['parent', ...validators.flatMap((_, i) => [`svc-${i + 1}`, `sc-${i + 1}`])]);

  const fr = r.child('faults');
  const faultCtx = { validatorCount: validators.length, nodes: nodeIds, stakes: validators.map((v) => v.stakeTokens) };
  const faults = r.arr(o, 'faults').map((item, i) => decodeFault(fr.child(i), item, faultCtx));

  const wr = r.child('workload');
  const wo = o.workload === undefined ? {} : wr.obj(o.workload);
  wr.noExtra(wo, [
    'transfers',
    'multiSends',
    'topups',
    'withdrawals',
    'stateSyncs',
    'stakeUpdates',
    'joins',
    'exits',
    'balanceOverrides',
    'signerChanges',
    'sidechainTxs',
  ]);
  const vIndex = (c: Reader, x: Obj) => c.int(x, 'validator', undefined, 1, validators.length);
  /** Every list item repeats: `repeat` times (1 to 100), `every` apart (default 0: at once). */
  const repeats = (c: Reader, x: Obj) => ({
    repeat: c.int(x, 'repeat', 1, 1, 100),
    everyMs: c.duration(x, 'every', 0),
  });
  const list = <T>(k: string, f: (c: Reader, x: Obj) => T, allowed: string[]): Array<T & Required<Repeats>> =>
    wr.arr(wo, k).map((item, i) => {
      const c = wr.child(k).child(i);
      const x = c.obj(item);
      c.noExtra(x, [...allowed, 'repeat', 'every']);
      return { ...f(c, x), ...repeats(c, x) };
    });
  const transfersObj = wo.transfers === undefined ? null : wr.child('transfers').obj(wo.transfers);
  const multiObj = wo.multiSends === undefined ? null : wr.child('multiSends').obj(wo.multiSends);
  const scTxObj = wo.sidechainTxs === undefined ? null : wr.child('sidechainTxs').obj(wo.sidechainTxs);
  if (transfersObj) wr.child('transfers').noExtra(transfersObj, ['every', 'amountWei']);
  if (multiObj) wr.child('multiSends').noExtra(multiObj, ['every', 'outputs', 'amountWei']);
  if (scTxObj) wr.child('sidechainTxs').noExtra(scTxObj, ['every', 'fastSignedEvery', 'probeEvery']);
  const positive = (c: Reader, x: Obj, k: string) => {
    const ms = c.duration(x, k);
    if (ms === 0) throw new InputError(c.at(k), 'must be positive');
    return ms;
  };
  const workload: WorkloadSpec = {
    transfers: transfersObj
      ? {
          everyMs: positive(wr.child('transfers'), transfersObj, 'every'),
          amountWei: wr.child('transfers').big(transfersObj, 'amountWei', 10n ** 15n),
        }
      : null,
    multiSends: multiObj
      ? {
          everyMs: positive(wr.child('multiSends'), multiObj, 'every'),
          outputs: wr.child('multiSends').int(multiObj, 'outputs', 2, 1, 50),
          amountWei: wr.child('multiSends').big(multiObj, 'amountWei', 10n ** 15n),
        }
      : null,
    topups: list(
      'topups',
      (c, x) => ({ atMs: c.duration(x, 'at'), validator: vIndex(c, x), amountTokens: c.big(x, 'amount', 10n) }),
      ['at', 'validator', 'amount'],
    ),
    withdrawals: list(
      'withdrawals',
      (c, x) => ({ atMs: c.duration(x, 'at'), validator: vIndex(c, x), amountTokens: c.big(x, 'amount', 0n) }),
      ['at', 'validator', 'amount'],
    ),
    stateSyncs: list('stateSyncs', (c, x) => ({ atMs: c.duration(x, 'at'), count: c.int(x, 'count', 1, 1, 1000) }), [
      'at',
      'count',
    ]),
    stakeUpdates: list(
      'stakeUpdates',
      (c, x) => ({ atMs: c.duration(x, 'at'), validator: vIndex(c, x), amountTokens: c.big(x, 'amount') }),
      ['at', 'validator', 'amount'],
    ),
    joins: list('joins', (c, x) => ({ atMs: c.duration(x, 'at'), stakeTokens: c.big(x, 'stake') }), ['at', 'stake']),
    exits: list('exits', (c, x) => ({ atMs: c.duration(x, 'at'), validator: vIndex(c, x) }), ['at', 'validator']),
    signerChanges: list('signerChanges', (c, x) => ({ atMs: c.duration(x, 'at'), validator: vIndex(c, x) }), [
      'at',
      'validator',
    ]),
    sidechainTxs: scTxObj
      ? {
          everyMs: positive(wr.child('sidechainTxs'), scTxObj, 'every'),
          ...(scTxObj.fastSignedEvery !== undefined
            ? { fastSignedEveryMs: positive(wr.child('sidechainTxs'), scTxObj, 'fastSignedEvery') }
            : {}),
          ...(scTxObj.probeEvery !== undefined
            ? { probeEveryMs: positive(wr.child('sidechainTxs'), scTxObj, 'probeEvery') }
            : {}),
        }
      : null,
  };
  const balanceOverrides = list('balanceOverrides', decodeBalanceOverride, BALANCE_OVERRIDE_FIELDS);
  if (balanceOverrides.length) workload.balanceOverrides = balanceOverrides;
  workload.stakeUpdates.forEach((u, i) => {
    if (u.amountTokens === 0n) throw new InputError(`workload.stakeUpdates[${i}].amount`, 'must be at least 1 token');
  });
  workload.joins.forEach((j, i) => {
    if (j.stakeTokens === 0n) throw new InputError(`workload.joins[${i}].stake`, 'must be at least 1 token');
  });

  const er = r.child('expect');
  const eo = o.expect === undefined ? {} : er.obj(o.expect);
  er.noExtra(eo, ['verdict', 'oracle', 'min', 'max', 'metrics']);
  const verdict = er.str(eo, 'verdict', 'pass');
  if (!['pass', 'safety', 'liveness', 'crash'].includes(verdict))
    throw new InputError('expect.verdict', `expected pass, safety, liveness or crash, got ${describeValue(verdict)}`);
  const countKeys = [
    'serviceBlocks',
    'sidechainBlocks',
    'spans',
    'checkpointsAcked',
    'noAcks',
    'reorgs',
    'sidechainTransfers',
  ];
  const named = (c: Reader, b: Obj, key: string, known: readonly string[], what: string) => {
    const n = c.child(key);
    const x = n.obj(b[key]);
    const out: Record<string, number> = {};
    for (const name of Object.keys(x)) {
      if (!known.includes(name))
        throw new InputError(n.at(name), `unknown ${what} ${describeValue(name)}; one of ${known.join(', ')}`);
      out[name] = n.int(x, name, undefined, 0);
    }
    return out;
  };
  const messageKeys = ['delivered', 'accepted', 'refused'];
  const bounds = (k: 'min' | 'max', extra: string[], kinds: boolean) => {
    const c = er.child(k);
    const b = eo[k] === undefined ? {} : c.obj(eo[k]);
    c.noExtra(b, [...countKeys, ...extra, ...messageKeys, ...(kinds ? ['byzantine'] : [])]);
    const out: Record<string, number | Record<string, number>> = {};
    for (const key of Object.keys(b)) {
      if (messageKeys.includes(key)) out[key] = named(c, b, key, MESSAGE_TYPES, 'message type');
      else if (key === 'byzantine') out[key] = named(c, b, key, BYZANTINE_TXS, 'Byzantine kind');
      else out[key] = c.int(b, key, undefined, 0);
    }
    return out;
  };
  const metricBounds = (c: Reader, o: Obj, k: 'min' | 'max'): Record<string, number> => {
    const b = c.child(k);
    const x = o[k] === undefined ? {} : b.obj(o[k]);
    const out: Record<string, number> = {};
    for (const [name, v] of Object.entries(x)) {
      if (!(METRIC_NAMES as readonly string[]).includes(name))
        throw new InputError(b.at(name), `unknown metric ${describeValue(name)}; one of ${METRIC_NAMES.join(', ')}`);
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new InputError(b.at(name), `expected a number, got ${describeValue(v)}`);
      out[name] = v;
    }
    return out;
  };
  const metricsReader = er.child('metrics');
  const mo = eo.metrics === undefined ? null : metricsReader.obj(eo.metrics);
  if (mo) metricsReader.noExtra(mo, ['min', 'max']);
  const expect: Expectations = {
    verdict: verdict as Verdict,
    ...(eo.oracle !== undefined ? { oracle: er.str(eo, 'oracle') } : {}),
    min: bounds('min', ['backupBlocks'], true),
    max: bounds('max', ['reorgDepth'], false),
    ...(mo
      ? { metrics: { min: metricBounds(metricsReader, mo, 'min'), max: metricBounds(metricsReader, mo, 'max') } }
      : {}),
  };

  const durationMs = r.duration(o, 'duration', 600_000);
  if (durationMs === 0) throw new InputError('duration', 'must be positive');
  // A fault that starts at or after the end never fires: that is a mistake in the file (a unit
  // slip, a duration cut without its faults), so it is an error, not a warning.
  faults.forEach((f, i) => {
    if (f.atMs !== undefined && f.atMs >= durationMs)
      throw new InputError(
        `faults[${i}].at`,
        `${durationText(f.atMs)} is at or after the end of the scenario (duration ${durationText(durationMs)}); it never fires`,
      );
  });

  return {
    name,
    description: r.str(o, 'description', ''),
    crypto,
    durationMs,
    maxEvents: r.int(o, 'maxEvents', defaultMaxEvents(validators.length), 1),
    epochMs: r.int(o, 'epoch', 1_700_000_000_000, 0),
    validators,
    params,
    network,
    faults,
    workload,
    expect,
    ...(o.plant !== undefined ? { plant: parsePlant(o.plant, 'plant') } : {}),
    ...(o.seed !== undefined ? { seed: r.int(o, 'seed', undefined, 0) } : {}),
    ...(o.streams !== undefined ? { streams: r.str(o, 'streams') } : {}),
    ...(o.buggify !== undefined ? { buggify: decodeBuggify(r.child('buggify'), o.buggify) } : {}),
  };
}

/**
 * The validator set: a list (`[{"stake": 12000, "balance": 1000}, …]`) or, for a large set, a count
 * and a stake distribution (`{"count": 105, "stake": {"distribution": "pareto", "alpha": 1.16}}`,
 * or `"stake": 5000` for equal stakes); see stakeDistribution.ts and scenarios/README.md.
 */
function decodeValidators(r: Reader, value: unknown): Array<{ stakeTokens: bigint; balanceTokens: bigint }> {
  if (value !== undefined && !Array.isArray(value)) {
    const o = r.obj(value);
    r.noExtra(o, ['count', 'stake', 'balance']);
    const count = r.int(o, 'count', undefined, 1, MAX_VALIDATORS);
    const balanceTokens = r.big(o, 'balance', 1000n);
    const stake = o.stake;
    const dist =
      stake === undefined
        ? DEFAULT_STAKE_DISTRIBUTION
        : typeof stake === 'object' && stake !== null && !Array.isArray(stake)
          ? decodeStakeDistribution(r.child('stake'), stake as Obj)
          : ({ kind: 'weights', weights: Array(count).fill(r.big(o, 'stake')), total: null } as StakeDistribution);
    if (dist.kind === 'weights' && dist.weights.some((w) => w === 0n))
      throw new InputError(`${r.path}.stake`, 'must be at least 1 token');
    return drawStakes(count, dist, `${r.path}.stake`).map((stakeTokens) => ({ stakeTokens, balanceTokens }));
  }
  const list = value ?? [];
  if (list.length < 1 || list.length > MAX_VALIDATORS)
    throw new InputError(
      r.path,
      `expected 1 to ${MAX_VALIDATORS} validators, got ${list.length} (for a large set: {"count": N, "stake": {...}})`,
    );
  return list.map((item, i) => {
    const c = r.child(i);
    const v = c.obj(item);
    c.noExtra(v, ['stake', 'balance']);
    const stakeTokens = c.big(v, 'stake');
    if (stakeTokens === 0n) throw new InputError(`${c.path}.stake`, 'must be at least 1 token');
    return { stakeTokens, balanceTokens: c.big(v, 'balance', 1000n) };
  });
}

const STAKE_DISTRIBUTIONS = ['pareto', 'uniform', 'weights'] as const;
/** Stakes beyond this many tokens would lose precision in the draws (and exceed any real supply). */
const MAX_DRAWN_STAKE = 2n ** 53n;

function decodeStakeDistribution(r: Reader, o: Obj): StakeDistribution {
  const kind = r.str(o, 'distribution', DEFAULT_STAKE_DISTRIBUTION.kind);
  const D = DEFAULT_STAKE_DISTRIBUTION as Extract<StakeDistribution, { kind: 'pareto' }>;
  /** min (at least 1 token) and max (at least min; by default `defaultMax(min)`), both within the drawable range. */
  const range = (defaultMin: bigint | undefined, defaultMax: (min: bigint) => bigint) => {
    const min = r.big(o, 'min', defaultMin);
    if (min === 0n) throw new InputError(`${r.path}.min`, 'must be at least 1 token');
    if (min > MAX_DRAWN_STAKE) throw new InputError(`${r.path}.min`, `must be at most ${MAX_DRAWN_STAKE}, got ${min}`);
    const max = r.big(o, 'max', defaultMax(min));
    if (max < min) throw new InputError(`${r.path}.max`, `must be at least min (${min}), got ${max}`);
    if (max > MAX_DRAWN_STAKE) throw new InputError(`${r.path}.max`, `must be at most ${MAX_DRAWN_STAKE}, got ${max}`);
    return { min, max };
  };
  switch (kind) {
    case 'pareto': {
      r.noExtra(o, ['distribution', 'alpha', 'min', 'max', 'seed']);
      const alpha = o.alpha === undefined ? D.alpha : o.alpha;
      if (typeof alpha !== 'number' || !(alpha >= 0.1 && alpha <= 100))
        throw new InputError(`${r.path}.alpha`, `expected a number from 0.1 to 100, got ${describeValue(alpha)}`);
      // The default cap keeps the default's ratio of max to min.
      const { min, max } = range(D.min, (m) => (m * D.max) / D.min);
      return { kind: 'pareto', alpha, min, max, seed: r.int(o, 'seed', D.seed) };
    }
    case 'uniform': {
      r.noExtra(o, ['distribution', 'min', 'max', 'seed']);
      const { min, max } = range(undefined, (m) => m);
      return { kind: 'uniform', min, max, seed: r.int(o, 'seed', 1) };
    }
    case 'weights': {
      r.noExtra(o, ['distribution', 'weights', 'total']);
      if (o.weights === undefined) throw new InputError(`${r.path}.weights`, 'is required');
      const weights = r.arr(o, 'weights').map((x, i) => {
        const w = parseUint(x, `${r.path}.weights[${i}]`);
        if (w === 0n) throw new InputError(`${r.path}.weights[${i}]`, 'must be at least 1');
        return w;
      });
      const total = o.total === undefined ? null : r.big(o, 'total');
      if (total === 0n) throw new InputError(`${r.path}.total`, 'must be at least 1 token');
      return { kind: 'weights', weights, total };
    }
    default:
      throw new InputError(
        `${r.path}.distribution`,
        `expected one of ${STAKE_DISTRIBUTIONS.join(', ')}, got ${describeValue(kind)}`,
      );
  }
}
