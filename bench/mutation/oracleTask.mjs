// Piscina worker entry of the oracle stage, inside an instrumented tree: register tsx (a worker
// does not inherit the parent's loader hooks), switch on a static mutant before any instrumented
// module loads (workerData.staticMutant: such a mutant acts while a module loads, so it needs a
// fresh worker), then load the task.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
if (workerData?.staticMutant !== undefined) {
  globalThis.__stryker__ ??= {};
  globalThis.__stryker__.activeMutant = workerData.staticMutant;
}
const mod = await import('./oracleTask.ts');
export default mod.default;
