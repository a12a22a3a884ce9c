/**
 * How long `lockstep --help` takes to start, compiled (bin/lockstep.js, what `npx lockstep` runs)
 * and from the TypeScript sources through tsx (what every start cost before the build: the old
 * bin registered tsx in-process; `npx tsx` adds npx and the tsx CLI's own process). Every command
 * is spawned LOCKSTEP_BENCH_STARTUP_RUNS times (default 15; LOCKSTEP_BENCH_QUICK=1: 5), the
 * variants interleaved so a busy machine slows them alike. The build is refreshed first, so the
 * figures are of the current sources.
 *
 * Peak RSS comes from the processes themselves: a preload module (--import through NODE_OPTIONS,
 * which child Node processes inherit) appends each process's maxRSS when it exits; a command's
 * figure is the sum over its Node processes (npx and the tsx CLI run the CLI in a child while
 * they wait).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchResult } from './harness';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const PRELOAD = `import { appendFileSync } from 'node:fs';
process.on('exit', () => {
  appendFileSync(process.env.LOCKSTEP_BENCH_RSS_FILE, process.resourceUsage().maxRSS + '\\n');
});
`;

interface Variant {
  name: string;
  what: string;
  command: string;
  args: string[];
}

const VARIANTS: Variant[] = [
  {
    name: 'node bin/lockstep.js --help',
    what: 'compiled',
    command: process.execPath,
    args: ['bin/lockstep.js', '--help'],
  },
  {
    name: 'node --import tsx cli/main.ts --help',
    what: 'tsx in-process, as the old bin',
    command: process.execPath,
    args: ['--import', 'tsx', 'cli/main.ts', '--help'],
  },
  {
    name: 'npx tsx cli/main.ts --help',
    what: 'tsx CLI through npx',
    command: 'npx',
    args: ['tsx', 'cli/main.ts', '--help'],
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function startupBenches(): BenchResult[] {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const runs = Number(process.env.LOCKSTEP_BENCH_STARTUP_RUNS ?? (quick ? 5 : 15));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });

  const dir = mkdtempSync(join(tmpdir(), 'lockstep-bench-startup-'));
  const preload = join(dir, 'rss.mjs');
  writeFileSync(preload, PRELOAD);
  const rssFile = join(dir, 'rss.txt');
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(preload).href}`.trim(),
    LOCKSTEP_BENCH_RSS_FILE: rssFile,
  };
  const wallMs = VARIANTS.map(() => [] as number[]);
  const rssKb = VARIANTS.map(() => [] as number[]);
  try {
    for (let i = -1; i < runs; i++) {
      VARIANTS.forEach((v, k) => {
        writeFileSync(rssFile, '');
        const start = performance.now();
        const r = spawnSync(v.command, v.args, { cwd: ROOT, env, encoding: 'utf8' });
        const ms = performance.now() - start;
        if (r.status !== 0 || !r.stdout.includes('lockstep run'))
          throw new Error(`${v.name} failed (exit ${r.status}): ${r.stderr}`);
        if (i < 0) return; // warm-up: file cache, npx's lookup
        wallMs[k]!.push(ms);
        const perProcess = readFileSync(rssFile, 'utf8').trim().split('\n').map(Number);
        rssKb[k]!.push(perProcess.reduce((a, b) => a + b, 0));
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return VARIANTS.map((v, k) => {
    const ms = wallMs[k]!;
    return {
      name: `startup: ${v.name}`,
      value: median(ms),
      unit: 'ms median',
      note: `${v.what}; min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)} ms; peak RSS ${(median(rssKb[k]!) / 1024).toFixed(0)} MB; ${runs} runs`,
    };
  });
}
