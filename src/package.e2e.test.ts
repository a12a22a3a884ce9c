/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepare`), installed from
 * the tarball into a scratch package, then used with plain Node, no tsx: a script imports
 * `lockstep/sim` and `lockstep`, `npx lockstep` runs, a fuzz campaign starts its compiled worker,
 * and a TypeScript consumer on moduleResolution nodenext type-checks against the declarations.
 *
 * The pack runs in a copy of the sources, so the test never rewrites the checkout's dist/. The
 * install resolves the dependencies from the npm cache where it can (--prefer-offline) and asks
 * the registry otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../sim/scenario/load';
import { runScenario } from '../sim/run/run';
import { swarmScenario } from '../sim/campaign/swarm';

const repo = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'lockstep-pack-'));
const app = join(work, 'app');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the scratch script prints: a short run inline and in a worker, from the installed package. */
const SCRIPT = `
import { loadScenario, runScenario, runScenarioAsync, swarmScenario, OracleSuite, LivenessOracle } from 'lockstep/sim';
import { keccak256 } from 'lockstep';
const { scenario, file } = loadScenario('default');
const fast = { ...scenario, crypto: 'fast' };
const inline = runScenario(fast, { seed: 3, untilMs: 20_000 });
const worker = await runScenarioAsync(fast, { seed: 3, untilMs: 20_000, placement: 'worker' });
console.log(JSON.stringify({
  file,
  verdict: inline.verdict,
  simulatedMs: inline.simulatedMs,
  inline: inline.traceHash,
  worker: worker.traceHash,
  swarmFaults: swarmScenario(5).faults.length,
  oracles: new OracleSuite(fast).oracles.some((o) => o instanceof LivenessOracle),
  keccak: keccak256('0x'),
}));
`;

/** A consumer of the types; the @ts-expect-error lines fail the check if the types went missing (any). */
const CONSUMER = `
import { loadScenario, runScenario, type RunResult, type Scenario } from 'lockstep/sim';
import { keccak256, type Hex } from 'lockstep';
const s: Scenario = loadScenario('smoke').scenario;
const r: RunResult = runScenario(s, { seed: 1, untilMs: 1000 });
const h: Hex = keccak256('0x');
// @ts-expect-error traceHash is a string
const n: number = r.traceHash;
// @ts-expect-error runScenario wants a seed
runScenario(s, {});
console.log(h, n);
`;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd, encoding: 'utf8', stdio: 'pipe' });
}

describe('the packed package', () => {
  let tarball = '';

  beforeAll(() => {
    const src = join(work, 'src');
    const skip = new Set(['node_modules', '.git', 'dist', 'reports']);
    cpSync(repo, src, { recursive: true, filter: (from) => !skip.has(from.slice(repo.length).split('/')[0]!) });
    symlinkSync(join(repo, 'node_modules'), join(src, 'node_modules'));
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], src)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    tarball = join(work, packed[0]!.filename);
    const files = packed[0]!.files.map((f) => f.path);
    // What a user needs and nothing of the development tree.
    expect(files).toEqual(expect.arrayContaining(['bin/lockstep.js', 'dist/js/cli.js', 'dist/js/sim.js']));
    expect(files).toEqual(expect.arrayContaining(['dist/types/sim/index.d.ts', 'scenarios/default.json', 'LICENSE']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('sim/'))).toEqual([]);

    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{"name":"scratch","private":true,"type":"module"}\n');
    npm(['install', tarball, '--prefer-offline'], app);
  }, 240_000);

  it('runs a scenario from `lockstep/sim` with plain Node, inline and in a worker, as the sources do', () => {
    writeFileSync(join(app, 'run.mjs'), SCRIPT);
    const out = JSON.parse(execFileSync(process.execPath, ['run.mjs'], { cwd: app, encoding: 'utf8' }));
    const { scenario } = loadScenario('default');
    const fromSource = runScenario({ ...scenario, crypto: 'fast' }, { seed: 3, untilMs: 20_000 });
    // The default scenarios directory is the installed package's.
    expect(out.file).toBe(join(app, 'node_modules', 'lockstep', 'scenarios', 'default.json'));
    expect(out.simulatedMs).toBe(20_000);
    expect(out.verdict).toBe(fromSource.verdict);
    expect(out.inline).toBe(fromSource.traceHash);
    expect(out.worker).toBe(fromSource.traceHash);
    expect(out.swarmFaults).toBeGreaterThan(0);
    expect(out.oracles).toBe(true);
    expect(out.keccak).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  }, 120_000);

  it('`npx lockstep --help` works from the installed package', () => {
    const r = spawnSync('npx', ['--no', '--', 'lockstep', '--help'], { cwd: app, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('lockstep run');
    expect(r.stdout).toContain('Exit codes:');
  }, 60_000);

  it('a fuzz campaign loads its compiled worker task and agrees with the sources', () => {
    const args = [
      'fuzz',
      '--strategy',
      'swarm',
      '--seeds',
      '1',
      '--workers',
      '1',
      '--duration',
      '30s',
      '--crypto',
      'fast',
      '--json',
    ];
    const r = spawnSync('npx', ['--no', '--', 'lockstep', ...args, '--out', join(work, 'fuzz')], {
      cwd: app,
      encoding: 'utf8',
    });
    // The campaign's seed 1, run here from the sources.
    const job = runScenario({ ...swarmScenario(1, 30_000), crypto: 'fast' }, { seed: 1 });
    expect(r.status, r.stderr).toBe(job.verdict === 'pass' ? 0 : 2);
    const summary = JSON.parse(r.stdout) as { seeds: number; verdicts: Record<string, number> };
    expect(summary.seeds).toBe(1);
    expect(summary.verdicts).toEqual({ [job.verdict]: 1 });
  }, 120_000);

  it('a TypeScript consumer on nodenext type-checks against the declarations', () => {
    writeFileSync(join(app, 'check.ts'), CONSUMER);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
        },
        files: ['check.ts'],
      }),
    );
    const r = spawnSync(join(repo, 'node_modules', '.bin', 'tsc'), ['-p', app], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);
});
