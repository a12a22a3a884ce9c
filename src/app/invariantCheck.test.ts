/**
 * Each module invariant, broken on purpose: the end-of-block check names it, its module and the
 * height. The corruptions write the store directly (past the keepers and their assertions), as a
 * bug in a handler or in the store would.
 */
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../core/errors';
import { type KVStore } from '../store/kvStore';
import { FEE_COLLECTOR, getAccount } from '../modules/auth/keeper';
import { getValidator } from '../modules/staking/keeper';
import { getSpan } from '../modules/span/keeper';
import { idKey } from '../modules/framework/storeKeys';
import { checkInvariants, invariantChecksByDefault } from './invariantCheck';
import { MODULES } from './modules';
import { TestChain } from './testing/testChain';

const HASH = `0x${'ab'.repeat(32)}`;

/** One corruption per invariant, written as a bug would write it. */
const BREAKS: Record<string, (store: KVStore, chain: TestChain) => void> = {
  'chain.sidechainChainId': (s) =>
    s.set('chain/params', { ...(s.get<object>('chain/params') ?? {}), sidechainChainId: 'bor' }),
  'auth.accountNumbers': (s, c) => {
    const a = getAccount(s, c.validators[0]!.address)!;
    s.set(`auth/account/${a.address}`, { ...a, accountNumber: 1000n });
  },
  'bank.positiveBalances': (s, c) => {
    const a = getAccount(s, c.validators[1]!.address)!;
    s.set(`auth/account/${a.address}`, { ...a, coins: { ...a.coins, matic: 0n } });
  },
  'bank.feesPaidOut': (s) => {
    const n = s.get<bigint>('auth/next_account_number')!;
    s.set('auth/next_account_number', n + 1n);
    s.set(`auth/account/${FEE_COLLECTOR}`, {
      address: FEE_COLLECTOR,
      coins: { matic: 5n },
      pubKey: null,
      accountNumber: n,
      sequence: 0n,
    });
  },
  'staking.signerIndex': (s, c) => s.delete(`staking/signer/${c.validators[0]!.address}`),
  'staking.setIsCurrentValidators': (s) => {
    const v = getValidator(s, 2n)!;
    s.set(`staking/validator/${idKey(2n)}`, { ...v, power: v.power + 7n });
  },
  'span.contiguous': (s) => {
    const span0 = getSpan(s, 0n)!;
    s.set(`sidechain/span/${idKey(1n)}`, {
      ...span0,
      id: 1n,
      startBlock: span0.endBlock + 5n,
      endBlock: span0.endBlock + 100n,
    });
  },
  'checkpoint.contiguous': (s) => s.set('checkpoint/ack_count', 3n),
  'topup.dividendAccounts': (s) => s.set(`topup/dividend/${idKey(99n)}`, { id: 99n, feeAmount: 1n, slashedAmount: 0n }),
  'clerk.replayKeys': (s) =>
    s.set(`clerk/record/${idKey(1n)}`, {
      id: 1n,
      contract: '0x0000000000000000000000000000000000000001',
      data: '0x',
      txHash: HASH,
      logIndex: 0n,
      sidechainChainId: '15001',
      recordTimeMs: 0,
    }),
};

describe('module invariants', () => {
  it('test builds check them by default (the vitest setup)', () => {
    expect(invariantChecksByDefault()).toBe(true);
  });

  it('every invariant a module states has a corruption here that breaks it', () => {
    const stated = MODULES.flatMap((m) => m.invariants.map((i) => `${m.name}.${i.name}`)).sort();
    expect(Object.keys(BREAKS).sort()).toEqual(stated);
  });

  it('a healthy chain passes them block after block', () => {
    const chain = new TestChain({ validators: 3 });
    for (let i = 0; i < 4; i++) chain.block();
    expect(() => checkInvariants(chain.app.store, chain.app.height)).not.toThrow();
  });

  it.each(Object.keys(BREAKS))(
    '%s: a committed state that breaks it fails the check, which names it and the height',
    (key) => {
      const chain = new TestChain({ validators: 3 });
      chain.block();
      expect(() => checkInvariants(chain.app.store, chain.app.height)).not.toThrow();
      BREAKS[key]!(chain.app.store, chain);
      expect(() => checkInvariants(chain.app.store, 7n)).toThrow(
        new RegExp(`^invariant ${key.replace('.', '\\.')} broken: .+ \\(height=7\\)$`),
      );
    },
  );

  it('the check runs at the end of every block: a state broken between blocks ends the next one', () => {
    const chain = new TestChain({ validators: 3 });
    chain.block();
    BREAKS['span.contiguous']!(chain.app.store, chain);
    let thrown: unknown = null;
    try {
      chain.block();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvariantError);
    expect((thrown as Error).message).toMatch(
      /^invariant span\.contiguous broken: span 1 starts at \d+, span 0 ended at \d+ \(height=2\)$/,
    );
  });

  it('an app told not to check them does not', () => {
    const chain = new TestChain({ validators: 3, checkInvariants: false });
    chain.block();
    BREAKS['checkpoint.contiguous']!(chain.app.store, chain);
    expect(() => chain.block()).not.toThrow();
    expect(() => checkInvariants(chain.app.store, chain.app.height)).toThrow(/invariant checkpoint\.contiguous broken/);
  });
});
