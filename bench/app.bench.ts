import { type BenchResult } from './harness';
import { TestChain, testKey, TOKEN } from '../src/app/testing/testChain';
import { MsgSendDef } from '../src/modules/bank/msgs';
import { clearSignatureCache } from '../src/core/secp256k1';
import { selectNextProducers } from '../src/modules/span/selection';
import { Rng } from '../sim/env/rng';

/** Transactions per second through decode + ante (real secp256k1 recovery) + MsgSend handler. */
function deliverRate(warm: boolean, txCount: number): number {
  const senders = Array.from({ length: 50 }, (_, i) => testKey(`bench-sender-${i}`));
  const chain = new TestChain({ validators: 4, accounts: senders.map((key) => ({ key, amount: 1_000_000n * TOKEN })) });
  const to = testKey('bench-receiver').address;
  const perSender = Math.ceil(txCount / senders.length);
  const txs: Uint8Array[] = [];
  for (let k = 0; k < perSender; k++) {
    for (const s of senders)
      txs.push(
        chain.tx(MsgSendDef, { fromAddress: s.address, toAddress: to, amount: [{ denom: 'matic', amount: 1n }] }, s, {
          sequenceOffset: BigInt(k),
        }),
      );
  }
  const run = () => {
    const fresh = new TestChain({
      validators: 4,
      accounts: senders.map((key) => ({ key, amount: 1_000_000n * TOKEN })),
    });
    fresh.app.beginBlock({ timeMs: 1000, proposer: fresh.validators[0]!.address });
    const start = performance.now();
    let ok = 0;
    for (const t of txs) if (fresh.app.deliverTx(t).code === 0) ok++;
    const ms = performance.now() - start;
    if (ok !== txs.length) throw new Error(`bench txs failed: ${txs.length - ok}`);
    return (txs.length * 1000) / ms;
  };
  clearSignatureCache();
  const cold = run();
  return warm ? run() : cold;
}

export function appBenches(): BenchResult[] {
  const out: BenchResult[] = [];
  out.push({
    name: 'app: MsgSend txs/s, full ante + handler, real signatures (cold cache)',
    value: deliverRate(false, 1000),
    unit: 'tx/s',
  });
  out.push({
    name: 'app: MsgSend txs/s, full ante + handler, verified-signature cache warm',
    value: deliverRate(true, 1500),
    unit: 'tx/s',
  });

  const rng = Rng.forSeed('bench').fork('selection');
  const validators = Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i + 1), power: 10_000n }));
  const seed = rng.bytes(32);
  selectNextProducers(seed, validators, 4);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = rng.bytes(32);
    const t0 = performance.now();
    selectNextProducers(s, validators, 4);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  out.push({
    name: 'selection: 100 validators x 10,000 power (1,000,000 slots), median',
    value: times[2]!,
    unit: 'ms per selection',
  });
  return out;
}
