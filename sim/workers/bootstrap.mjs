// Worker entry when running from the TypeScript sources (vitest, tsx): load TypeScript through tsx,
// then the module named in workerData. A worker does not inherit the parent's loader hooks, and
// `--import tsx` in a worker's execArgv does not apply to its entry module on Node 20, so the
// worker registers tsx itself. The compiled package starts its workers from dist/js/ instead
// (workerEntry.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
