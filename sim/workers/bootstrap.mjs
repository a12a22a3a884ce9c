// Worker entry: load TypeScript through tsx (no build step), then the module named in workerData.
// A worker does not inherit the parent's loader hooks, and `--import tsx` in a worker's execArgv
// does not apply to its entry module on Node 20, so the worker registers tsx itself.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
