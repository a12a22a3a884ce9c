/**
 * Planted bugs, for measuring the oracles (test builds only): each name is a realistic one-line
 * slip in one rule, switched on by a one-line `if (isPlanted('…'))` branch at that rule in src/.
 * All are off unless a run's scenario names one (`plant`, or the hidden `--plant` flag) or a test
 * turns one on; a run switches its plant on in every thread that runs part of it (both placements
 * give the same trace). `npm run bench -- oracles` checks that the oracle guarding each rule
 * catches its plant.
 *
 * The list is fixed: a name nothing checks for would be a plant that cannot be caught.
 */
import { InputError } from './errors';

export interface PlantInfo {
  /** The rule it breaks, as the spec states it. */
  rule: string;
  /** The bug, in a few words. */
  bug: string;
  /** The oracle that guards the rule (sim/oracles), which must catch it. */
  oracle: string;
  /**
   * Oracles that guard the same rule from another side and may see the bug first: a Byzantine
   * sender's crafted tx that breaks the rule is accepted at DeliverTx, where `byzantine-refused`
   * sees it, before the state the guard reads is written.
   */
  alsoGuardedBy?: readonly string[];
}

export const PLANTS = {
  'producer-delay': {
    rule: 'a block is not earlier than parent.time + delay(succession)',
    bug: 'the backup delay leaves out succession x backupMultiplier',
    oracle: 'producer-schedule',
  },
  succession: {
    rule: "difficulty = N - succession, counted forward from the sprint's proposer",
    bug: 'succession counted backwards from the proposer',
    oracle: 'producer-schedule',
  },
  'fork-choice-length': {
    rule: 'fork choice: the highest total difficulty, then the lower number',
    bug: 'the longer chain wins before total difficulty is compared',
    oracle: 'fork-choice',
  },
  'fork-choice-tiebreak': {
    rule: 'fork choice tie-break: the larger hash',
    bug: 'the hash tie-break reversed',
    oracle: 'fork-choice',
  },
  'span-window': {
    rule: 'a span proposal is voted for only while start <= head < end of the current span',
    bug: 'the lower bound of the window is not checked',
    oracle: 'span-window-and-continuity',
  },
  'span-continuity': {
    rule: "a span starts right after the last span's end block",
    bug: 'a span starting after a gap is accepted',
    // The proposal is accepted at delivery, where the service model predicts 3501: the first
    // wrong event is the transaction's result, before any span is frozen.
    oracle: 'tx-results',
    alsoGuardedBy: ['byzantine-refused'],
  },
  'noack-timing': {
    rule: 'a no-ack only after the buffer time since the last checkpoint',
    bug: "the last checkpoint's time in seconds read as milliseconds",
    oracle: 'checkpoint-timeouts',
    alsoGuardedBy: ['byzantine-refused'],
  },
  'rotation-on-ack': {
    rule: 'the checkpoint proposer rotates by one on each ack',
    bug: 'no rotation on an ack',
    oracle: 'checkpoint-timeouts',
  },
  'rotation-on-noack': {
    rule: 'the checkpoint proposer rotates by one on each no-ack',
    bug: 'no rotation on a no-ack',
    oracle: 'checkpoint-timeouts',
  },
  'topup-replay': {
    rule: 'a top-up (tx hash, log index) is minted once',
    bug: 'the already-minted check is skipped',
    oracle: 'topup-idempotency',
    // The skipped check is also rule topup.replay.deliver's (docs/RULES.md): the replay is accepted
    // at delivery, where the service model predicts 1401, before the second mint is posted.
    alsoGuardedBy: ['byzantine-refused', 'tx-results'],
  },
  'send-debit': {
    rule: 'a send moves exactly its amount from the sender to the recipient',
    bug: 'the sender is not debited',
    oracle: 'accounts-and-fees',
  },
  'sequence-on-failure': {
    rule: 'a rejected transaction changes nothing (no sequence bump, no fee)',
    bug: "a transaction failing in its handler keeps the ante's sequence bump and fee",
    oracle: 'accounts-and-fees',
  },
  'quorum-threshold': {
    rule: 'a block is committed with precommits of more than 2/3 of the power',
    bug: 'more than 1/2 of the power is taken as a quorum',
    oracle: 'bft-quorum',
  },
  'lock-rule': {
    rule: "a validator locked on a block prevotes another only with a POL round at or after its lock's",
    bug: 'the lock is ignored when prevoting a proposal without a POL round',
    oracle: 'bft-lock',
  },
  'unauthorised-signer': {
    rule: "a block is sealed by a producer of its parent's snapshot",
    bug: 'a signer outside the producers is taken as in turn',
    oracle: 'producer-schedule',
  },
  'early-block': {
    rule: 'a block earlier than its succession allows is refused',
    bug: 'the too-soon check is skipped',
    oracle: 'producer-schedule',
  },
  'sprint-start-syscalls': {
    rule: 'state-sync records are committed by sprint-start blocks',
    bug: 'the state-sync system calls run at sprint ends',
    oracle: 'state-sync',
  },
  'sticky-head': {
    rule: 'a node reorgs onto a heavier chain',
    bug: 'a node never leaves its own head for another branch',
    oracle: 'fork-choice',
  },
  'span-commit-late': {
    rule: "the next span is committed at the first block of the current span's last sprint",
    bug: 'the span is committed one sprint late',
    oracle: 'span-commit',
  },
  'floor-unmoved': {
    rule: "a sidechain node makes an acked checkpoint's end block its finality floor",
    bug: 'the floor is left unmoved after a verified ack',
    oracle: 'finality-floor',
  },
  'relay-confirmations': {
    rule: 'the bridge relays a parent-chain event only at the configured confirmation depth',
    bug: 'events are relayed at confirmations - 1',
    oracle: 'bridge-confirmations',
  },
  'round-proposer': {
    rule: "round r's proposer is the height's set after r more priority rotations",
    bug: 'one rotation too many for rounds after 0',
    oracle: 'round-proposer',
  },
  'round-skip': {
    rule: 'a node seeing f + 1 of the power in a later round skips to that round',
    bug: 'the round skip is left out',
    oracle: 'bft-progress',
  },
  'backup-wiggle': {
    rule: 'a backup at succession s steps in at delay + s x wiggle',
    bug: 'a backup steps in one wiggle late',
    oracle: 'backup-step-in',
  },
  'base-fee-to-author': {
    rule: "a transfer's tip above the base fee goes to the block's author; the base fee is burnt",
    bug: 'the whole gas price, base fee included, goes to the author',
    oracle: 'sidechain-accounts',
  },
  'pool-price-bump': {
    rule: 'a pool replaces a transaction only with one paying at least 10% more on both its fee cap and its tip',
    bug: "the tip's 10% bump is not checked",
    oracle: 'sidechain-pool',
  },
} as const satisfies Record<string, PlantInfo>;

export type PlantName = keyof typeof PLANTS;

export const PLANT_NAMES = Object.keys(PLANTS) as PlantName[];

/** The plant switched on in this thread (one per run; null: none). */
let active: PlantName | null = null;

/** Is this planted bug switched on? (One line at the rule: `if (isPlanted('…'))`.) */
/** The oracles that guard a plant's rule: its guard first, then the ones that may see it first. */
export function plantGuards(name: PlantName): readonly string[] {
  const p: PlantInfo = PLANTS[name];
  return [p.oracle, ...(p.alsoGuardedBy ?? [])];
}

export function isPlanted(name: PlantName): boolean {
  return active === name;
}

/** A plant name from a scenario file or a flag (`field` is named in the error). */
export function parsePlant(value: unknown, field = 'plant'): PlantName {
  if (typeof value !== 'string' || !(PLANT_NAMES as readonly string[]).includes(value))
    throw new InputError(field, `unknown planted bug ${JSON.stringify(value)}; known: ${PLANT_NAMES.join(', ')}`);
  return value as PlantName;
}

/**
 * Switch a plant on for what runs next in this thread (null: none). A run does it for its
 * scenario as it builds its domains, in each thread, so a plant never outlives its run's setup.
 */
export function setPlant(name: PlantName | null): void {
  active = name;
}

/** Run `fn` with `name` switched on, and switch it off again (tests). */
export function withPlant<T>(name: PlantName, fn: () => T): T {
  const before = active;
  active = name;
  try {
    return fn();
  } finally {
    active = before;
  }
}
