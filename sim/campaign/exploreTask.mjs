// Piscina worker entry when running from the TypeScript sources (vitest, tsx): register tsx (a
// worker does not inherit the parent's loader hooks), then load the TypeScript task. The compiled
// package loads dist/js/exploreTask.js instead (sim/workers/workerEntry.ts).
import { register } from 'tsx/esm/api';

register();
const mod = await import('./exploreTask.ts');
export default mod.default;
