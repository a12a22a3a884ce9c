import { describe, expect, it } from 'vitest';
import { TestChain, testKey, TOKEN, type AccountJson } from './testing/testChain';
import { MsgSendDef } from '../modules/bank/msgs';

describe('service app: blocks and transfers', () => {
  it('a signed MsgSend moves coins, pays the fee to the proposer and bumps the sequence', () => {
    const chain = new TestChain();
    const [a, b, c] = chain.validators;
    const to = testKey('receiver').address;
    const before = chain.app.appHash;
    const r = chain.block(
      [
        chain.tx(
          MsgSendDef,
          { fromAddress: a!.address, toAddress: to, amount: [{ denom: 'matic', amount: 5n * TOKEN }] },
          a!,
        ),
      ],
      { proposer: c!.address },
    );
    expect(r.txs[0]).toMatchObject({ code: 0 });
    expect(chain.balance(to)).toBe(5n * TOKEN);
    expect(chain.balance(a!.address)).toBe(1000n * TOKEN - 5n * TOKEN - 10n ** 15n);
    expect(chain.balance(c!.address)).toBe(1000n * TOKEN + 10n ** 15n);
    expect(chain.queryResult<AccountJson>('/auth/accounts/' + a!.address).value.sequence).toBe('1');
    expect(chain.app.appHash).not.toBe(before);
    void b;
  });
});
