/**
 * The rule inventory: every normative rule of the spec and of the reference notes the project
 * follows, one table per module (docs/RULES.md is generated from it by `npm run rules`).
 * sim/rules/inventory.test.ts checks every guard: an oracle of the OracleSuite that names the rule
 * in its `saw(...)` calls, or a unit test file and title that exist.
 */
import { APP_RULES } from './app';
import { AUTH_RULES } from './auth';
import { BANK_RULES } from './bank';
import { BRIDGE_RULES } from './bridge';
import { CHECKPOINT_RULES } from './checkpoint';
import { CLERK_RULES } from './clerk';
import { CONSENSUS_RULES } from './consensus';
import { ENDPOINT_RULES } from './endpoints';
import { PARENT_RULES } from './parent';
import { type Rule } from './rule';
import { SIDECHAIN_RULES } from './sidechain';
import { SPAN_RULES } from './span';
import { STAKING_RULES } from './staking';
import { TOPUP_RULES } from './topup';

export type { Rule } from './rule';
export { isOracleGuard } from './rule';

export const RULES = [
  ...AUTH_RULES,
  ...BANK_RULES,
  ...STAKING_RULES,
  ...SPAN_RULES,
  ...CHECKPOINT_RULES,
  ...TOPUP_RULES,
  ...CLERK_RULES,
  ...APP_RULES,
  ...CONSENSUS_RULES,
  ...SIDECHAIN_RULES,
  ...BRIDGE_RULES,
  ...PARENT_RULES,
  ...ENDPOINT_RULES,
] as const satisfies readonly Rule[];

/** A rule of the inventory, by id. */
export type RuleId = (typeof RULES)[number]['id'];

/** The modules, in the order docs/RULES.md shows them: the id's first segment, and a title. */
export const RULE_MODULES: ReadonlyArray<{ module: string; title: string }> = [
  { module: 'auth', title: 'auth: transactions, the ante handler, gas' },
  { module: 'bank', title: 'bank: transfers and supply' },
  { module: 'chain', title: 'chain: chain parameters' },
  { module: 'staking', title: 'staking: validators, epochs, the validator set and its proposer' },
  { module: 'span', title: 'span: span proposals and producer selection' },
  { module: 'checkpoint', title: 'checkpoint: proposals, buffer, acks, no-acks, roots' },
  { module: 'topup', title: 'topup: fee top-ups and withdrawals' },
  { module: 'clerk', title: 'clerk: state-sync records' },
  { module: 'app', title: 'app: blocks, side-transaction voting, fees to the proposer' },
  { module: 'consensus', title: 'consensus: the BFT engine' },
  {
    module: 'sidechain',
    title: 'sidechain: seal, difficulty, delays, sprints, span and state-sync commits, fork choice, finality',
  },
  { module: 'bridge', title: 'bridge: relaying parent-chain events, proposing checkpoints and spans' },
  { module: 'parent', title: 'parent: the parent-chain contracts and events' },
  { module: 'rest', title: 'rest: the service REST API' },
  { module: 'status', title: 'status: the node status RPC' },
  { module: 'jsonrpc', title: 'jsonrpc: the sidechain JSON-RPC' },
  { module: 'console', title: 'console: the operator console' },
  { module: 'cli', title: 'cli: the client and daemon commands' },
];

/** The module of a rule id (its first segment). */
export const moduleOf = (id: string): string => id.slice(0, id.indexOf('.'));

const BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
