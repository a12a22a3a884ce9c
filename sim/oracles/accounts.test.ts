/**
 * The accounts, supply and top-up oracles on hand-built service blocks: silent when every account
 * the block wrote is what the rules give; fire on a failed tx that still bumps the sequence, a
 * wrong fee, a send that debits wrongly, a wrong dividend, minted coins, a replayed top-up.
 */
import { describe, expect, it } from 'vitest';
import { type Observation, type TxMsgFact } from '../../src/node/observations';
import { AccountsOracle, SupplyOracle, TopupIdempotencyOracle } from './accounts';
import { type Oracle } from './oracle';
import { TX_FEE as F, VALIDATORS, account, commit, hash, rec, serviceGenesis, tx } from './testing/observations';

const [V1, V2, V3] = VALIDATORS.map((v) => v.signer) as [`0x${string}`, `0x${string}`, `0x${string}`];
const START = 100n * F;

function feedAll(oracles: Oracle[], obs: Observation[]): void {
  obs.forEach((o, i) => {
    for (const x of oracles) x.observe(rec(i + 1, 'svc-1', o));
  });
}

const send = (amount: bigint): TxMsgFact => ({
  type: 'cosmos-sdk/MsgSend',
  fromAddress: V1,
  toAddress: V2,
  amount: [{ denom: 'matic', amount }],
});

describe('accounts-and-fees oracle', () => {
  it('silent on a send: the sender pays amount and fee, sequence + 1; the proposer gets the fee', () => {
    const o = new AccountsOracle();
    feedAll(
      [o],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, send(5n))],
          writes: [account(V1, START - F - 5n, 1n), account(V2, START + 5n, 0n), account(V3, START + F, 0n)],
        }),
      ],
    );
    expect(o.violation).toBeNull();
  });

  it('fires on a rejected tx that still bumps its sender sequence', () => {
    const o = new AccountsOracle();
    feedAll([o], [serviceGenesis(), commit(1n, { txs: [tx(0, V1, send(5n), 5)], writes: [account(V1, START, 1n)] })]);
    expect(o.violation).toMatchObject({ oracle: 'accounts-and-fees', class: 'safety' });
    expect(o.violation!.message).toMatch(/has sequence 1; its successful transactions leave it 0/);
  });

  it('fires on a rejected tx that still pays the fee, and on a wrong fee', () => {
    const charged = new AccountsOracle();
    feedAll(
      [charged],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, send(5n), 5)],
          writes: [account(V1, START - F, 0n), account(V3, START + F, 0n)],
        }),
      ],
    );
    expect(charged.violation?.message).toMatch(/holds .*; the transactions of the block leave it/);
    const wrong = new AccountsOracle();
    feedAll(
      [wrong],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, send(5n))],
          writes: [account(V1, START - 2n * F - 5n, 1n), account(V2, START + 5n, 0n), account(V3, START + 2n * F, 0n)],
        }),
      ],
    );
    expect(wrong.violation?.message).toMatch(new RegExp(`${V1.toLowerCase()} holds`));
  });

  it('fires on a send that debits more than its amount', () => {
    const o = new AccountsOracle();
    feedAll(
      [o],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, send(5n))],
          writes: [account(V1, START - F - 10n, 1n), account(V2, START + 5n, 0n), account(V3, START + F, 0n)],
        }),
      ],
    );
    expect(o.violation?.message).toContain(
      `holds ${START - F - 10n}matic; the transactions of the block leave it ${START - F - 5n}matic`,
    );
  });

  it('a withdrawal moves the balance into the dividend account; a wrong dividend fires', () => {
    const all = START - F;
    const w: TxMsgFact = { type: 'topup/MsgWithdrawFee', fromAddress: V1, amount: 0n };
    const ok = new AccountsOracle();
    feedAll(
      [ok],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, w)],
          writes: [
            account(V1, 0n, 1n),
            account(V3, START + F, 0n),
            { what: 'dividend', id: 1n, feeAmount: all, slashedAmount: 0n },
          ],
        }),
      ],
    );
    expect(ok.violation).toBeNull();
    const bad = new AccountsOracle();
    feedAll(
      [bad],
      [
        serviceGenesis(),
        commit(1n, {
          proposer: V3,
          txs: [tx(0, V1, w)],
          writes: [
            account(V1, 0n, 1n),
            account(V3, START + F, 0n),
            { what: 'dividend', id: 1n, feeAmount: all - 1n, slashedAmount: 0n },
          ],
        }),
      ],
    );
    expect(bad.violation?.message).toMatch(/validator 1's dividend account holds/);
  });
});

describe('top-up: accounts, supply and idempotency', () => {
  const topupTx = tx(
    0,
    V1,
    { type: 'topup/MsgTopup', fromAddress: V1, id: 2n, txHash: hash('l1tx'), logIndex: 0n },
    0,
    'topup',
  );
  const parent: Observation = {
    kind: 'parent.block',
    number: 7n,
    hash: hash('p7'),
    timeMs: 0,
    txs: 1,
    events: [{ event: 'TopUpFee', txHash: hash('l1tx'), logIndex: 0n, user: V2, fee: 30n * F }],
  };
  const delivered = commit(1n, {
    proposer: V3,
    txs: [topupTx],
    writes: [account(V1, START - F, 1n), account(V3, START + F, 0n)],
  });
  const minted = (height: bigint, v2: bigint, v1: bigint) =>
    commit(height, {
      sideTxs: [{ txHash: topupTx.hash, msgType: 'topup/MsgTopup', tally: 'yes', code: 0 }],
      writes: [account(V2, v2, 0n), account(V1, v1, 1n)],
    });

  it('a top-up mints the TopUpFee to its user and pays the relayer 10^15: silent', () => {
    const os = [new AccountsOracle(), new SupplyOracle(), new TopupIdempotencyOracle()];
    feedAll(os, [parent, serviceGenesis(), delivered, minted(3n, START + 30n * F - F, START)]);
    expect(os.map((o) => o.violation)).toEqual([null, null, null]);
  });

  it('a replayed top-up minting twice fires the idempotency oracle', () => {
    const os = [new TopupIdempotencyOracle(), new SupplyOracle(), new AccountsOracle()];
    feedAll(os, [
      parent,
      serviceGenesis(),
      delivered,
      minted(3n, START + 29n * F, START),
      minted(4n, START + 58n * F, START + F),
    ]);
    expect(os[0]!.violation?.message).toMatch(/top-up .*\/0 minted twice/);
    // The second mint is a legitimate-looking post on the ledger (the parent event exists): the
    // idempotency oracle is the one that guards replays; supply follows the successful posts.
    expect(os[1]!.violation).toBeNull();
  });

  it('supply: coins from nowhere fire', () => {
    const o = new SupplyOracle();
    feedAll([o], [serviceGenesis(), commit(1n, { writes: [account(V2, START + 1n, 0n)] })]);
    expect(o.violation).toMatchObject({ oracle: 'supply-conservation' });
    expect(o.violation!.message).toMatch(/supply .* != genesis supply plus top-ups/);
  });

  it('accounts: a mint without its parent-chain TopUpFee fires', () => {
    const o = new AccountsOracle();
    feedAll([o], [serviceGenesis(), delivered, minted(3n, START + 29n * F, START)]);
    expect(o.violation?.message).toMatch(/the parent chain emitted no TopUpFee there/);
  });
});
