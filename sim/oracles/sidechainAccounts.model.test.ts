/**
 * The sidechain-accounts oracle on blocks the real sidechain built and imported (legacy and
 * EIP-1559 transfers, a fee cap below base + tip, a transfer to oneself and one to the block's
 * author, a balance override, two blocks at one height), reported as a node reports them: the
 * unchanged run passes and exercises every rule; each field the oracle compares, changed in one
 * report, is caught and named (the header's bloom by the first byte that differs). A sender the
 * signature does not recover (another account's, or a fast-scheme signature taken as its key's) is
 * caught on a real-crypto run and not judged on a fast one.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type SidechainBlockFact } from '../../src/node/observations';
import { blockFact, startedObservation } from '../../src/node/sidechain/sidechainFacts';
import { type BalanceOverride } from '../../src/sidechain/accounts';
import { nextBaseFee } from '../../src/sidechain/baseFee';
import { SidechainChain, type StoredBlock } from '../../src/sidechain/chain';
import { buildBlock, planProduction } from '../../src/sidechain/producer';
import { type SignedTx, TRANSFER_GAS, signTransfer } from '../../src/sidechain/transaction';
import {
  FIXTURE_CONFIG,
  fixtureAlloc,
  fixtureKeys,
  fixtureProducers,
  fixtureTransfer,
} from '../../src/sidechain/testing/fixture';
import { type CryptoMode, fastScheme, realScheme } from '../../src/core/signatureScheme';
import { EMPTY_BLOOM } from './model/logsBloom';
import { type RunRecord } from './oracle';
import { SidechainAccountsOracle } from './sidechainAccounts';

const cfg = FIXTURE_CONFIG;
const producerKeys = fixtureKeys('sidechain-accounts-producers');
const [alice, bob, carol, dave] = fixtureKeys('sidechain-accounts-users');
const FAR = 10n ** 12n;
/** An address nobody funded. */
const NOBODY = `0x${'66'.repeat(20)}` as Address;

/** A run of the real chain, reported as its node reports it. */
function recordedRun(): { log: RunRecord[]; forkParent: Hex } {
  const chain = new SidechainChain(cfg, {
    timeS: 1000n,
    producers: fixtureProducers(producerKeys),
    // dave holds nothing until an override funds him.
    alloc: fixtureAlloc([alice!, bob!, carol!]),
  });
  const log: RunRecord[] = [{ t: 0, node: 'sc-1', obs: startedObservation(chain, 'svc-1') }];
  const add = (
    parent: StoredBlock,
    txs: (author: Address, baseFee: bigint) => SignedTx[],
    balances: BalanceOverride[] = [],
    backup = 0,
  ): StoredBlock => {
    const set = parent.snapshot.validatorSet;
    const who =
      backup === 0 ? set.proposer.address : producerKeys.map((k) => k.address).find((a) => a !== set.proposer.address)!;
    const plan = planProduction(cfg, parent, who)!;
    const sk = producerKeys.find((k) => k.address === who)!.sk;
    const want = txs(who, nextBaseFee(parent.block.header));
    const block = buildBlock(
      chain,
      plan,
      sk,
      who,
      { span: () => null, stateSyncs: () => [], txs: want, balances },
      plan.timeS,
    );
    expect(block.body.txs).toHaveLength(want.length);
    expect(chain.import(block, FAR, 0).status).toBe('imported');
    const stored = chain.get(block.hash)!;
    const run = { parentAccounts: parent.accounts, accounts: stored.accounts, outcomes: stored.outcomes };
    log.push({
      t: log.length * 2000,
      node: 'sc-1',
      obs: {
        kind: 'sidechain.imported',
        block: blockFact(block, run),
        head: { hash: block.hash, number: block.header.number },
      },
    });
    return stored;
  };
  let head = add(chain.genesis, () => []);
  head = add(head, () => [
    fixtureTransfer(alice!, bob!.address, 0n, { value: 5n }),
    fixtureTransfer(bob!, carol!.address, 0n, { value: 7n, type: 0 }),
  ]);
  head = add(head, (author, baseFee) => [
    fixtureTransfer(alice!, alice!.address, 1n, { value: 3n }),
    fixtureTransfer(alice!, author, 2n, { value: 11n }),
    // A fee cap a little above the base fee: the price is the cap, the tip what is left.
    signTransfer(
      {
        type: 2,
        chainId: cfg.chainId,
        nonce: 0n,
        to: alice!.address,
        value: 1n,
        gasLimit: TRANSFER_GAS * 2n,
        maxFeePerGas: baseFee + 5n,
        maxPriorityFeePerGas: 10n,
      },
      carol!.sk,
      realScheme,
    ),
  ]);
  head = add(head, () => [fixtureTransfer(dave!, bob!.address, 0n, { value: 13n })], [
    { address: dave!.address, balance: 10n ** 15n },
  ]);
  const forkParent = head.block.hash;
  add(head, () => [fixtureTransfer(bob!, carol!.address, 1n, { value: 17n })]);
  // A second block on the same parent, with another transaction: judged on its own parent's state.
  add(head, () => [fixtureTransfer(bob!, dave!.address, 1n, { value: 19n, type: 0 })], [], 1);
  return { log, forkParent };
}

function replay(log: readonly RunRecord[], crypto: CryptoMode = 'real'): SidechainAccountsOracle {
  const oracle = new SidechainAccountsOracle(crypto);
  for (const r of log) oracle.observe(r);
  return oracle;
}

type Fact = SidechainBlockFact;
type Tx = NonNullable<Fact['transfers']>['txs'][number];

/** The changes to one block fact, each with the field the oracle must name. */
function changes(b: Fact): Array<{ what: string; field: RegExp; change: (f: Fact) => void }> {
  const out: Array<{ what: string; field: RegExp; change: (f: Fact) => void }> = [
    {
      what: 'baseFee',
      field: /^baseFee$/,
      change: (f) => {
        f.baseFee = f.baseFee! + 1n;
      },
    },
    {
      what: 'gasUsed',
      field: /^gasUsed$/,
      change: (f) => {
        f.gasUsed += 1n;
      },
    },
    {
      what: 'bloom, one bit of its last byte flipped',
      field: /^bloom byte 255$/,
      change: (f) => {
        const last = Number.parseInt(f.bloom.slice(-2), 16) ^ 1;
        f.bloom = `0x${f.bloom.slice(2, -2)}${last.toString(16).padStart(2, '0')}`;
      },
    },
  ];
  // A block whose transfers logged: its bloom, left empty, misses their bits.
  if (b.bloom !== EMPTY_BLOOM)
    out.push({
      what: 'bloom emptied',
      field: /^bloom byte \d+$/,
      change: (f) => {
        f.bloom = EMPTY_BLOOM;
      },
    });
  const t = b.transfers;
  if (!t) return out;
  out.push(
    {
      what: 'gasLimit',
      field: /^gasLimit$/,
      change: (f) => {
        f.gasLimit = TRANSFER_GAS - 1n;
      },
    },
    {
      what: 'signer',
      field: /^balance of /,
      change: (f) => {
        f.signer = NOBODY;
      },
    },
  );
  const tx = (i: number, what: string, field: RegExp, change: (x: Tx) => void) =>
    out.push({ what: `txs[${i}].${what}`, field, change: (f) => change(f.transfers!.txs[i]!) });
  for (const [i, x] of t.txs.entries()) {
    tx(i, 'chainId', /^chainId$/, (y) => {
      y.chainId += 1n;
    });
    tx(i, 'nonce', /^nonce$/, (y) => {
      y.nonce += 1n;
    });
    tx(i, 'from', /^(nonce|balance)$/, (y) => {
      y.from = NOBODY;
    });
    tx(i, 'to', /^balance of /, (y) => {
      y.to = `0x${'77'.repeat(20)}` as Address;
    });
    // A transfer to oneself moves no value: a different value changes no balance.
    if (x.from !== x.to)
      tx(i, 'value', /^balance of /, (y) => {
        y.value += 1n;
      });
    tx(i, 'gasLimit', /^gasLimit$/, (y) => {
      y.gasLimit = TRANSFER_GAS - 1n;
    });
    tx(i, 'gasUsed', /^gasUsed$/, (y) => {
      y.gasUsed += 1n;
    });
    tx(i, 'effectiveGasPrice', /^effectiveGasPrice$/, (y) => {
      y.effectiveGasPrice += 1n;
    });
    if (x.type === 0)
      tx(i, 'gasPrice', /^effectiveGasPrice$/, (y) => {
        y.gasPrice! += 1n;
      });
    else {
      // Below the base fee, and so (geth checks it first) often below the tip too.
      tx(i, 'maxFeePerGas', /^max(Priority)?FeePerGas$/, (y) => {
        y.maxFeePerGas = b.baseFee! - 1n;
      });
      tx(i, 'maxPriorityFeePerGas above the cap', /^maxPriorityFeePerGas$/, (y) => {
        y.maxPriorityFeePerGas = y.maxFeePerGas! + 1n;
      });
      // A price held at the cap does not move with the tip.
      if (x.effectiveGasPrice !== x.maxFeePerGas)
        tx(i, 'maxPriorityFeePerGas', /^effectiveGasPrice$/, (y) => {
          y.maxPriorityFeePerGas! += 1n;
        });
    }
  }
  for (const [i, a] of t.accounts.entries()) {
    out.push({
      what: `accounts[${i}].nonce`,
      field: /^nonce of /,
      change: (f) => {
        f.transfers!.accounts[i]!.nonce += 1n;
      },
    });
    out.push({
      what: `accounts[${i}].balance`,
      field: /^balance of /,
      change: (f) => {
        f.transfers!.accounts[i]!.balance -= 1n;
      },
    });
    out.push({
      what: `accounts[${i}] left out (${a.address})`,
      field: /^(nonce|balance) of /,
      change: (f) => {
        f.transfers!.accounts.splice(i, 1);
      },
    });
  }
  for (const [i] of t.balances.entries())
    out.push({
      what: `balances[${i}].balance`,
      field: /^balance of /,
      change: (f) => {
        f.transfers!.balances[i]!.balance += 1n;
      },
    });
  return out;
}

describe('the sidechain-accounts oracle', () => {
  const { log } = recordedRun();

  it('passes the unchanged run and exercises every rule it judges', () => {
    const o = replay(log);
    expect(o.violation).toBeNull();
    expect([...o.exercised].sort()).toEqual([...SidechainAccountsOracle.judges].sort());
  });

  it('names the field of any compared fact changed in one report', () => {
    let checked = 0;
    for (const [index, r] of log.entries()) {
      if (r.obs.kind !== 'sidechain.imported') continue;
      const obs = r.obs;
      for (const c of changes(obs.block as Fact)) {
        const block = structuredClone(obs.block) as Fact;
        c.change(block);
        const changed = [...log];
        changed[index] = { ...r, obs: { ...obs, block } };
        const v = replay(changed.slice(0, index + 1)).violation;
        expect(v, `block ${block.number}: ${c.what}`).not.toBeNull();
        expect(v!.evidence.field, `block ${block.number}: ${c.what}: ${v!.message}`).toMatch(c.field);
        expect(v!.evidence).toMatchObject({ block: String(block.number), hash: block.hash });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('judges a block once: the same block reported again by another node is skipped', () => {
    const again = log.filter((r) => r.obs.kind === 'sidechain.imported').map((r) => ({ ...r, node: 'sc-2' }));
    expect(replay([...log, ...again]).violation).toBeNull();
  });
});

describe('the sidechain-accounts oracle: the sender a signature recovers', () => {
  const { log } = recordedRun();
  const at = log.findIndex((r) => r.obs.kind === 'sidechain.imported' && r.obs.block.transfers?.txs.length);
  const record = log[at]!;
  const obs = record.obs as Extract<RunRecord['obs'], { kind: 'sidechain.imported' }>;
  const original = obs.block.transfers!.txs[0]!;
  /** The log with the first transaction's report changed (its block's later reports dropped). */
  const tampered = (change: (x: Tx) => void): RunRecord[] => {
    const block = structuredClone(obs.block) as Fact;
    change(block.transfers!.txs[0]!);
    return [...log.slice(0, at), { ...record, obs: { ...obs, block } }];
  };
  /** Another funded account named as the sender: its accounts do not add up, whatever the crypto. */
  const byOther = tampered((x) => {
    x.from = bob!.address;
  });
  /** The same transfer signed by its sender's key in the fast scheme's format: the forgery a real network refuses. */
  const fastSigned = signTransfer(
    {
      type: original.type as 0 | 2,
      chainId: original.chainId,
      nonce: original.nonce,
      to: original.to,
      value: original.value,
      gasLimit: original.gasLimit,
      maxFeePerGas: original.maxFeePerGas ?? original.gasPrice!,
      ...(original.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: original.maxPriorityFeePerGas } : {}),
    },
    alice!.sk,
    fastScheme,
  );
  const forged = tampered((x) => {
    x.r = fastSigned.r;
    x.s = fastSigned.s;
    x.yParity = fastSigned.yParity;
  });
  const flipped = tampered((x) => {
    x.yParity = x.yParity === 0 ? 1 : 0;
  });

  it("the fixture: the first transfer is alice's, and the forged signature is the fast format of her key", () => {
    expect(original.from).toBe(alice!.address);
    expect(fastSigned.from).toBe(alice!.address);
    expect(fastSigned.s.slice(2, 26)).toBe('0'.repeat(24));
  });

  it('real crypto: a sender the signature does not recover is named, with the block and the transaction', () => {
    for (const [what, changed] of [
      ['a fast-scheme signature taken as its key', forged],
      ['the y parity flipped', flipped],
    ] as const) {
      const v = replay(changed, 'real').violation;
      expect(v, what).not.toBeNull();
      expect(v!.evidence, `${what}: ${v!.message}`).toMatchObject({
        rule: 'sidechain.tx.sender-recovery',
        field: 'from',
        block: String(obs.block.number),
        hash: obs.block.hash,
        tx: original.hash,
        got: alice!.address,
      });
      expect(v!.evidence.expected).not.toBe(v!.evidence.got);
    }
  });

  it('fast crypto: the sender is not judged (the fast scheme is not secp256k1)', () => {
    const o = replay(log, 'fast');
    expect(o.violation).toBeNull();
    expect(o.exercised.has('sidechain.tx.sender-recovery')).toBe(false);
    // A signature that recovers no such sender passes; a sender whose accounts do not add up is still caught by them.
    expect(replay(forged, 'fast').violation).toBeNull();
    expect(replay(flipped, 'fast').violation).toBeNull();
    for (const crypto of ['fast', 'real'] as const)
      expect(replay(byOther, crypto).violation?.evidence.rule, crypto).toBe('sidechain.tx.nonce');
  });
});
