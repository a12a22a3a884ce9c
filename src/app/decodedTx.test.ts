/**
 * A transaction is decoded once per process: every use (CheckTx, block building, DeliverTx, side
 * votes, reported facts) gets the same read-only decoding, and nothing else in src decodes tx bytes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../core/bytes';
import { MsgSendDef } from '../modules/bank/msgs';
import { decodeTxBytes, decodeTxHex } from './decodedTx';
import { TestChain, testKey } from './testing/testChain';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('decoded once', () => {
  const chain = new TestChain({ validators: 1 });
  const v = chain.validators[0]!;
  const raw = chain.tx(
    MsgSendDef,
    { fromAddress: v.address, toAddress: testKey('to').address, amount: [{ denom: 'matic', amount: 5n }] },
    v,
  );

  it('the same bytes, as bytes or hex, give the same shared decoding', () => {
    const a = decodeTxBytes(raw);
    expect(decodeTxBytes(Uint8Array.from(raw))).toBe(a);
    expect(decodeTxHex(toHex(raw))).toBe(a);
    expect(a.tx?.def.type).toBe('cosmos-sdk/MsgSend');
    expect(a.error).toBeNull();
    expect(chain.app.checkTx(a)).toMatchObject({ code: 0, hash: a.hash });
  });

  it('bytes that do not decode carry the error naming the field; hex that is not hex is refused', () => {
    const bad = decodeTxBytes(utf8('{"msg":{"type":"cosmos-sdk/MsgSend","value":{}},"signature":"0x01"}'));
    expect(bad.tx).toBeNull();
    expect(bad.error).toMatch(/^tx\.msg\.value\.from_address: is required/);
    expect(chain.app.checkTx(bad)).toMatchObject({ code: 2, codespace: 'sdk' });
    expect(() => decodeTxHex('0xzz')).toThrow(/tx/);
  });

  it('nothing else in src decodes tx bytes (the REST server decodes a request body, a JSON value)', () => {
    const callers = sourceFiles(SRC)
      .filter((f) => /\bdecodeTx\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(callers.sort()).toEqual(['app/decodedTx.ts', 'modules/auth/stdTx.ts', 'rpc/rest/broadcastRequest.ts']);
  });
});
