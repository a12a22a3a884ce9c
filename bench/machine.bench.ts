import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { type BenchResult } from './harness';

/**
 * The machine's parallel ceiling: the same CPU-bound job (keccak-256 over 64-byte inputs, pure JS
 * like most of a run's work) in one worker thread, then in two at once. The fuzz bench's
 * "2 workers over 1" cannot beat this ratio on the same machine; on a VM whose two vCPUs share a
 * physical core it is well below 2.
 */
const JOB = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.hashes).then(({ keccak_256 }) => {
  const input = new Uint8Array(64);
  const start = Date.now();
  let n = 0;
  while (Date.now() - start < workerData.ms) {
    for (let i = 0; i < 1000; i++) input[i & 63] ^= keccak_256(input)[0];
    n += 1000;
  }
  parentPort.postMessage(n);
});
`;

function spin(ms: number): Promise<number> {
  const hashes = pathToFileURL(createRequire(import.meta.url).resolve('@noble/hashes/sha3.js')).href;
  return new Promise((resolve, reject) => {
    const w = new Worker(JOB, { eval: true, workerData: { ms, hashes } });
    w.once('message', (n: number) => resolve(n));
    w.once('error', reject);
  });
}

export async function machineBenches(): Promise<BenchResult[]> {
  const ms = process.env.LOCKSTEP_BENCH_QUICK === '1' ? 1_000 : 5_000;
  const one = await spin(ms);
  const [a, b] = await Promise.all([spin(ms), spin(ms)]);
  const two = a! + b!;
  return [
    { name: 'keccak-256 in 1 worker thread', value: (one * 1000) / ms, unit: 'hashes/s' },
    { name: 'keccak-256 in 2 worker threads at once (sum)', value: (two * 1000) / ms, unit: 'hashes/s' },
    {
      name: 'parallel ceiling: 2 threads over 1',
      value: two / one,
      unit: 'x',
      note: 'no 2-worker speed-up on this machine can exceed it',
    },
  ];
}
