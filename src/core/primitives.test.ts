import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromHex, toHex, toBytes, compareBytes, latin1Key, u64be } from './bytes';
import { parseAddress, isAddress, compareAddresses } from './address';
import { parseUint, parseUint64, pad32, floorDiv, clipInt64, INT64_MAX, INT64_MIN } from './amount';
import { canonicalJson } from './canonicalJson';
import { abciLog, assert, ErrorCodes, InvariantError } from './errors';

describe('hex', () => {
  it('round-trips lower-case', () => expect(toHex(fromHex('0xDEADbeef'))).toBe('0xdeadbeef'));
  it('names the field on bad input', () => {
    expect(() => fromHex('dead', 'txHash')).toThrow(/^txHash: expected 0x-prefixed hex/);
    expect(() => fromHex('0xabc', 'txHash')).toThrow(/odd number/);
    expect(() => fromHex('0xzz', 'txHash')).toThrow(/not a hex string/);
    expect(() => toBytes('0x00', 'seed', 32)).toThrow(/seed: expected 32 bytes, got 1/);
  });
  it('any bytes round-trip; every non-hex character is refused (table-driven parsing)', () => {
    fc.assert(
      // Up to past toHex's first scratch buffer (it grows), then short again.
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 80 }), fc.uint8Array({ maxLength: 2000 })), (b) => {
        const hex = toHex(b);
        expect(hex).toBe(`0x${Buffer.from(b).toString('hex')}`);
        expect(fromHex(hex)).toEqual(b);
        expect(fromHex(hex.toUpperCase().replace('0X', '0x'))).toEqual(b);
      }),
    );
    for (let c = 0; c < 0x180; c++) {
      const ch = String.fromCharCode(c);
      const ok = /[0-9a-fA-F]/.test(ch);
      const parse = () => fromHex(`0x0${ch}`, 'h');
      if (ok) expect(parse()).toEqual(new Uint8Array([parseInt(ch, 16)]));
      else expect(parse).toThrow(/^h: not a hex string/);
    }
  });
  it('compares like Go bytes.Compare', () => {
    expect(compareBytes(fromHex('0x01'), fromHex('0x0100'))).toBe(-1);
    expect(compareBytes(fromHex('0x02'), fromHex('0x0100'))).toBe(1);
    expect(compareBytes(fromHex('0x'), fromHex('0x'))).toBe(0);
  });
  it('u64be', () => expect(toHex(u64be(16))).toBe('0x0000000000000010'));
  it('latin1Key: one char per byte, the byte as its code (so distinct bytes give distinct keys), views included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(8), (b, cut) => {
        const view = b.subarray(Math.min(cut, b.length));
        const key = latin1Key(view);
        expect(key.length).toBe(view.length);
        expect([...key].map((c) => c.charCodeAt(0))).toEqual([...view]);
      }),
    );
  });
});

describe('addresses', () => {
  it('parse case-insensitively, write lower-case', () => {
    expect(parseAddress('0xABCDEF0123456789ABCDEF0123456789ABCDEF01')).toBe(
      '0xabcdef0123456789abcdef0123456789abcdef01',
    );
    expect(isAddress('0xABCDEF0123456789ABCDEF0123456789ABCDEF01')).toBe(false);
  });
  it('error names the field and the bad value', () => {
    expect(() => parseAddress('0x1234', 'to_address')).toThrow(
      /^to_address: not a 20-byte 0x-hex address: string "0x1234"/,
    );
    expect(() => parseAddress(42, 'from')).toThrow(/from: .*number 42/);
  });
  it('order is byte order', () => {
    expect(
      compareAddresses('0x0a00000000000000000000000000000000000000', '0x0b00000000000000000000000000000000000000'),
    ).toBe(-1);
  });
});

describe('amounts', () => {
  it('parse strict decimals', () => {
    expect(parseUint('1000000000000000000000', 'amount')).toBe(10n ** 21n);
    for (const bad of ['', '-1', '01', '1e3', ' 1', '0x10', '1.0'])
      expect(() => parseUint(bad, 'amount')).toThrow(/amount/);
    expect(() => parseUint64('18446744073709551616', 'height')).toThrow(/height: out of range/);
  });
  it('pad32', () => {
    expect(toHex(pad32(0))).toBe('0x' + '00'.repeat(32));
    expect(toHex(pad32(258))).toBe('0x' + '00'.repeat(30) + '0102');
    expect(() => pad32(-1n)).toThrow();
    expect(() => pad32(1n << 256n)).toThrow();
  });
  it('floor division and int64 clipping', () => {
    expect(floorDiv(-7n, 2n)).toBe(-4n);
    expect(floorDiv(7n, 2n)).toBe(3n);
    expect(floorDiv(-8n, 2n)).toBe(-4n);
    expect(clipInt64(INT64_MAX + 5n)).toBe(INT64_MAX);
    expect(clipInt64(INT64_MIN - 5n)).toBe(INT64_MIN);
  });
});

describe('canonical JSON', () => {
  it('sorts keys at every level, no whitespace, integers as strings', () => {
    expect(canonicalJson({ b: 1, a: { d: [3n, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":["3",{"y":null,"z":true}]},"b":"1"}',
    );
  });
  it('drops undefined members and escapes like Go', () => {
    expect(canonicalJson({ a: undefined, m: '<a&b>\u2028' })).toBe('{"m":"\\u003ca\\u0026b\\u003e\\u2028"}');
  });
  it('refuses fractions and bytes (an invariant, not input)', () => {
    expect(() => canonicalJson({ x: 1.5 })).toThrow(InvariantError);
    expect(() => canonicalJson({ x: new Uint8Array(1) })).toThrow(InvariantError);
  });
  it('matches the reference sign-doc example shape', () => {
    const doc = {
      sequence: '7',
      msg: { value: { start_block: '0' }, type: 'checkpoint/MsgCheckpoint' },
      memo: '',
      chain_id: 'heimdall-137',
      account_number: '0',
    };
    expect(canonicalJson(doc)).toBe(
      '{"account_number":"0","chain_id":"heimdall-137","memo":"","msg":{"type":"checkpoint/MsgCheckpoint","value":{"start_block":"0"}},"sequence":"7"}',
    );
  });
});

describe('errors', () => {
  it('ABCI log shape', () => {
    const oldTx = { codespace: 'topup', code: 1401, message: 'Older invalid tx found' };
    expect(abciLog(oldTx)).toBe('{"codespace":"topup","code":1401,"message":"Older invalid tx found"}');
  });
  it('a registry refuses a code registered twice, in one table or across tables', () => {
    const codes = new ErrorCodes();
    const a = codes.define('1', { InvalidNoAck: [1505, 'Invalid No ACK -- Waiting for last checkpoint ACK'] });
    expect(a.InvalidNoAck).toEqual({
      codespace: '1',
      code: 1505,
      message: 'Invalid No ACK -- Waiting for last checkpoint ACK',
    });
    expect(() => codes.define('1', { InvalidNoAckProposer: [1505, 'Invalid No ACK Proposer'] })).toThrow(
      /an error code is registered once .*code=1505.*registeredAs="InvalidNoAck"/,
    );
    expect(() => codes.define('x', { A: [1, 'a'], B: [1, 'b'] })).toThrow(InvariantError);
    // The same number in another codespace is another code.
    codes.define('topup', { OldTx: [1401, 'Older invalid tx found'] });
    codes.define('2', { InvalidNoAck: [1505, 'other'] });
    expect(codes.list().map((e) => `${e.codespace}/${e.code} ${e.name}`)).toEqual([
      '1/1505 InvalidNoAck',
      'x/1 A',
      'topup/1401 OldTx',
      '2/1505 InvalidNoAck',
    ]);
  });
  it('assert throws with context', () => {
    expect(() => assert(false, 'heap order broken', { seed: 7, at: 10n })).toThrow('heap order broken (seed=7, at=10)');
  });
});
