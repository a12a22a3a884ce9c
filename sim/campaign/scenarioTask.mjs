// Piscina worker entry: register tsx (a worker does not inherit the parent's loader hooks), then
// load the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./scenarioTask.ts');
export default mod.default;
