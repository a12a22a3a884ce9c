import { loadScenario } from './scenario/load';
import { runScenario } from './run';
const s = loadScenario('mainnet-105').scenario;
const t0 = process.cpuUsage();
const r = runScenario({ ...s, crypto: 'fast', durationMs: 240000 } as never, { seed: 1 });
const t = process.cpuUsage(t0);
console.log(r.verdict, ((t.user + t.system) / 1e6).toFixed(1), 's cpu');
