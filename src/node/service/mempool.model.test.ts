/**
 * Model-based test (fc.commands) of the mempool: add, reap, remove and recheck against a plain
 * list in arrival order. CheckTx is a stand-in whose verdict per tx the commands flip, and the
 * model's reap is written from the rule (arrival order, the first tx that does not fit ends the
 * block, a checkpoint tx alone and first or not at all), not from the code.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Hex, toHex } from '../../core/bytes';
import { type DecodedTx } from '../../app/decodedTx';
import { type TxResult } from '../../app/blockResults';
import { Mempool, type MempoolEntry } from './mempool';

const POOL = 10;
const MAX_TXS = 5;

interface FakeTx extends DecodedTx {
  checkpoint: boolean;
  keyOf: string | null;
}

function fakeTx(i: number, size: number, checkpoint: boolean, key: string | null): FakeTx {
  const raw = new Uint8Array(size).fill(i + 1);
  const def = checkpoint
    ? { type: 'checkpoint/MsgCheckpoint', route: 'checkpoint', msgType: 'checkpoint' }
    : { type: 'bank/MsgSend', route: 'bank', msgType: 'send' };
  return {
    hex: toHex(raw),
    raw,
    hash: `0x${(i + 1).toString(16).padStart(64, '0')}` as Hex,
    tx: { def, msg: {}, signature: '0x01', memo: '' } as unknown as DecodedTx['tx'],
    error: null,
    checkpoint,
    keyOf: key,
  };
}

const gasOf = (t: DecodedTx) => BigInt(t.raw.length) * 10n + 1000n;

interface World {
  txs: FakeTx[];
  valid: boolean[];
  /** The hashes CheckTx was asked about, in order. */
  checked: Hex[];
}

interface Model {
  list: FakeTx[];
}

interface Real {
  pool: Mempool;
  world: World;
}

function check(world: World) {
  return (t: DecodedTx): TxResult => {
    world.checked.push(t.hash);
    const i = world.txs.findIndex((x) => x.hash === t.hash);
    const ok = world.valid[i]!;
    return {
      code: ok ? 0 : 4,
      codespace: ok ? '' : 'sdk',
      log: '',
      gasWanted: 0n,
      gasUsed: 0n,
      events: [],
      hash: t.hash,
    };
  };
}

const hashes = (xs: readonly { hash: Hex }[]) => xs.map((x) => x.hash);

function sameOrder(m: Model, r: Real): void {
  expect(hashes([...r.pool.entries()])).toEqual(hashes(m.list));
  expect(r.pool.size).toBe(m.list.length);
}

class Add implements fc.Command<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const t = r.world.txs[this.i]!;
    r.world.checked = [];
    const out = r.pool.add(t, check(r.world), t.keyOf);
    if (m.list.some((x) => x.hash === t.hash)) {
      expect(out).toEqual({ added: false, reason: 'duplicate' });
      expect(r.world.checked).toEqual([]);
    } else if (m.list.length >= MAX_TXS) {
      expect(out).toEqual({ added: false, reason: 'full' });
      expect(r.world.checked).toEqual([]);
    } else if (!r.world.valid[this.i]) {
      expect(out).toMatchObject({ added: false, reason: 'rejected', check: { code: 4 } });
    } else {
      expect(out.added).toBe(true);
      const e = (out as { entry: MempoolEntry }).entry;
      expect(e).toMatchObject({ hash: t.hash, key: t.keyOf, gas: gasOf(t) });
      m.list.push(t);
    }
    sameOrder(m, r);
  }
  toString = () => `Add(${this.i})`;
}

class Reap implements fc.Command<Model, Real> {
  constructor(
    readonly maxBytes: number,
    readonly maxGas: bigint,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const got = r.pool.reap({ maxBytes: this.maxBytes, maxGas: this.maxGas });
    if (m.list.length > 1) reapsOfMany++;
    const want: FakeTx[] = [];
    let bytes = 0;
    let gas = 0n;
    for (const t of m.list) {
      if (t.checkpoint) {
        if (want.length === 0) {
          want.push(t);
          break;
        }
        continue;
      }
      if (bytes + t.raw.length > this.maxBytes || gas + gasOf(t) > this.maxGas) break;
      want.push(t);
      bytes += t.raw.length;
      gas += gasOf(t);
    }
    expect(hashes(got)).toEqual(hashes(want));
    // Reaping takes nothing out: a block's txs leave when it commits.
    sameOrder(m, r);
  }
  toString = () => `Reap(${this.maxBytes}, ${this.maxGas})`;
}

class Remove implements fc.Command<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const t = r.world.txs[this.i]!;
    const was = m.list.some((x) => x.hash === t.hash);
    expect(r.pool.remove(t.hash)).toBe(was);
    m.list = m.list.filter((x) => x.hash !== t.hash);
    sameOrder(m, r);
  }
  toString = () => `Remove(${this.i})`;
}

class Flip implements fc.Command<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  run(_m: Model, r: Real): void {
    r.world.valid[this.i] = !r.world.valid[this.i];
  }
  toString = () => `Flip(${this.i})`;
}

class Recheck implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real): void {
    r.world.checked = [];
    const dropped = r.pool.recheck(check(r.world));
    // Every waiting tx is checked once, in arrival order; the refused ones go.
    expect(r.world.checked).toEqual(hashes(m.list));
    const gone = m.list.filter((t) => !r.world.valid[r.world.txs.indexOf(t)]);
    expect(hashes(dropped)).toEqual(hashes(gone));
    m.list = m.list.filter((t) => !gone.includes(t));
    sameOrder(m, r);
  }
  toString = () => 'Recheck';
}

class HasKey implements fc.Command<Model, Real> {
  constructor(readonly key: string) {}
  check = () => true;
  run(m: Model, r: Real): void {
    expect(r.pool.hasKey(this.key)).toBe(m.list.some((t) => t.keyOf === this.key));
  }
  toString = () => `HasKey(${this.key})`;
}

const KEYS = ['span/1', 'checkpoint/0/63/0xab', '0xcd/0'];
let reapsOfMany = 0;

describe('mempool (model-based)', () => {
  it('add, reap, remove, recheck and bridge keys behave as the model says', () => {
    const world = fc.record({
      sizes: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: POOL, maxLength: POOL }),
      checkpoints: fc.array(fc.boolean(), { minLength: POOL, maxLength: POOL }),
      keys: fc.array(fc.option(fc.constantFrom(...KEYS), { freq: 2 }), { minLength: POOL, maxLength: POOL }),
      // Mostly accepted, so the pool fills.
      valid: fc.array(
        fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
        { minLength: POOL, maxLength: POOL },
      ),
    });
    const idx = fc.integer({ min: 0, max: POOL - 1 });
    const commands = [
      idx.map((i) => new Add(i)),
      idx.map((i) => new Add(i)),
      idx.map((i) => new Add(i)),
      fc
        .tuple(fc.integer({ min: 0, max: 2_000 }), fc.bigInt({ min: 0n, max: 20_000n }))
        .map(([b, g]) => new Reap(b, g)),
      idx.map((i) => new Remove(i)),
      idx.map((i) => new Flip(i)),
      fc.constant(new Recheck()),
      fc.constantFrom(...KEYS).map((k) => new HasKey(k)),
    ];
    fc.assert(
      fc.property(world, fc.commands(commands, { maxCommands: 60, size: 'large' }), (w, cmds) => {
        const txs = w.sizes.map((s, i) => fakeTx(i, s, w.checkpoints[i]! && i % 4 === 0, w.keys[i] ?? null));
        const real: Real = { pool: new Mempool(gasOf, MAX_TXS), world: { txs, valid: [...w.valid], checked: [] } };
        fc.modelRun(() => ({ model: { list: [] }, real }), cmds);
      }),
      { numRuns: 300 },
    );
    // The interesting reaps (of two or more waiting txs) do happen.
    expect(reapsOfMany).toBeGreaterThan(100);
  });
});
