/** Rules of the parent chain: the staking, root-chain and state-sender contracts and their events. */
import { type Rule } from './rule';

const STAKE = 'src/parent/contracts/stakeManager.test.ts';
const ROOT = 'src/parent/contracts/rootChain.test.ts';

export const PARENT_RULES = [
  {
    id: 'parent.stake.slots',
    rule: 'stake and stakeFor fail when no validator slot is free; a slot freed by an unstake can be taken.',
    source: 'spec: Errors (validator slots unavailable); reference: README section J',
    guard: {
      unit: STAKE,
      test: 'no free slot: stake and stakeFor fail with "no more slots" and change nothing; a slot freed by unstake can be taken',
      why: 'the parent chain is the environment of the service, driven by the workload; its contracts are pinned by unit tests',
    },
  },
  {
    id: 'parent.stake.staked-event',
    rule: 'A stake emits Staked with the signer, a sequential validator id, activationEpoch = the current epoch, the amount and the signer public key.',
    source: 'spec: Events (Staked)',
    guard: {
      unit: STAKE,
      test: 'emits Staked with the signer, sequential id, activationEpoch = currentEpoch, total stake and the 64-byte key',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.stake.min-one-token',
    rule: 'A stake below one token fails; exactly one token is enough.',
    source: 'reference: heimdall.md §4.2 (power from amount)',
    guard: {
      unit: STAKE,
      test: 'below one token fails; exactly one token is enough',
      why: 'a contract rule of the simulated environment',
    },
  },
  {
    id: 'parent.stake.update-event',
    rule: 'Added stake emits StakeUpdate(validatorId, newAmount).',
    source: 'spec: Events (StakeUpdate)',
    guard: {
      unit: STAKE,
      test: 'the owner adds stake: StakeUpdate(validatorId, newAmount)',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.unstake.event',
    rule: 'Starting an exit emits UnstakeInit(user, validatorId, deactivationEpoch = current epoch + 1, amount).',
    source: 'spec: Events (UnstakeInit)',
    guard: {
      unit: STAKE,
      test: 'emits UnstakeInit(user = owner, id, deactivationEpoch = currentEpoch + 1, amount)',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.signer.change-event',
    rule: 'A signer change emits SignerChange(validatorId, oldSigner, newSigner, signerPubkey); changing to the same signer fails.',
    source: 'spec: Events (SignerChange), Authentication 7-8',
    guard: {
      unit: STAKE,
      test: 'emits SignerChange(id, old, new, 64-byte key); the old signer is free again',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.topup.event',
    rule: 'A fee top-up emits TopUpFee(user, fee), for anyone paying for anyone.',
    source: 'spec: Events (TopUpEvent); reference: README section I (TopUpFee(user, fee))',
    guard: {
      unit: STAKE,
      test: 'emits TopUpFee(user, fee) for anyone paying for anyone',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.state-sender.ids',
    rule: 'The state sender emits StateSynced(id, contract, data) with ids 1, 2, … in order.',
    source: 'spec: Events (StateSynced); reference: README section I',
    guard: {
      unit: 'src/parent/contracts/stateSender.test.ts',
      test: 'emits StateSynced(id, receiver, data) with ids 1, 2, …',
      why: 'an event of the simulated environment, pinned at its contract',
    },
  },
  {
    id: 'parent.root-chain.two-thirds',
    rule: 'The root chain accepts a checkpoint only with signatures of current validators holding more than 2/3 of the power, each counted once; exactly 2/3 fails.',
    source: 'spec: What the service does 10 ("a majority of the validator set attests each one")',
    guard: { unit: ROOT, test: 'exactly 2/3 of the power fails', why: 'a contract rule of the simulated environment' },
  },
  {
    id: 'parent.root-chain.contiguous',
    rule: 'Checkpoints on the root chain start at block 0 and each next one starts one block after the previous end.',
    source: 'reference: heimdall.md §3.2',
    guard: {
      unit: ROOT,
      test: 'each next one starts at the previous end + 1: gaps and overlaps fail',
      why: 'a contract rule of the simulated environment',
    },
  },
  {
    id: 'parent.root-chain.header-block',
    rule: 'Checkpoint n is stored as header block n × 10000 and emits NewHeaderBlock; the epoch advances with it.',
    source: 'reference: heimdall.md §3.1 (ChildBlockInterval), §3.3',
    guard: {
      unit: ROOT,
      test: 'stores header block n under id n × 10000, emits NewHeaderBlock and advances the epoch',
      why: 'a contract rule of the simulated environment',
    },
  },
  {
    id: 'parent.root-chain.sign-digest',
    rule: "Validators sign a checkpoint's proposer, range, root, account root and the sidechain chain id; a signature over another chain id does not count.",
    source: 'reference: README item 8 (side-sign bytes take the configured chain id), heimdall.md §3.7',
    guard: {
      unit: ROOT,
      test: 'with a configured sidechain chain id, another chain id fails even when signed',
      why: 'a contract rule of the simulated environment',
    },
  },
  {
    id: 'parent.finality.depth',
    rule: 'A parent block is final once 6 blocks are on top of it (finalized = head − 6, never below 0).',
    source: 'reference: heimdall.md §8.1-§8.2',
    guard: {
      unit: 'src/parent/parentChain.test.ts',
      test: 'finalizedNumber = head - 6, never below 0; isFinal follows it',
      why: 'the depth the parent chain reports; the bridge acting on it is guarded by bridge-confirmations',
    },
  },
  {
    id: 'parent.logs.log-index',
    rule: 'Log indexes count across the whole block in receipt order; each log names its contract, transaction and block.',
    source: 'spec: Transaction messages (log_index); reference: heimdall.md §8.1',
    guard: {
      unit: 'src/parent/parentChain.test.ts',
      test: 'logIndex counts across the block; each log names its contract, tx and block',
      why: 'the parent chain is the environment; the keys derived from it are guarded by the replay rules',
    },
  },
] as const satisfies readonly Rule[];
