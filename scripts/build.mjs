// `npm run build` (also run by `npm ci`/`npm install` through `prepare`, and before `npm pack`):
// the compiled package in dist/.
//
//   dist/js/     the JavaScript, bundled by esbuild: one file per entry point plus shared chunks;
//                dependencies stay imports of the installed packages. The entry points are the
//                CLI, `lockstep`, `lockstep/sim` and every worker entry, found by name so a new
//                one cannot be forgotten: `sim/**/X.worker.ts`, and every piscina task `X.ts`
//                that has its source loader `X.mjs` beside it. dist/js/ is two levels below the
//                package root, like the sources (sim/scenario/load.ts), so a path a module computes
//                from its own URL, such as `../../scenarios`, resolves the same compiled or not;
//                and every worker entry sits beside the chunk that starts it
//                (sim/workers/workerEntry.ts).
//   dist/types/  the type declarations of `lockstep` and `lockstep/sim`, from tsc; tsc-alias
//                adds the `.js` extensions that consumers on moduleResolution node16/nodenext need.
//
// dist/js/ is replaced whole at the end (built beside it, then swapped by two renames), never
// emptied first: a `lockstep` started while a build runs (a test, a second terminal, the first
// `npx lockstep` of a fresh clone, which has npm run `prepare` again) finds the old build or the
// new one, not a missing file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { replaceTscAliasPaths } from 'tsc-alias';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

const js = join(dist, 'js');
const nextJs = join(dist, 'js.next');
const oldJs = join(dist, 'js.old');
for (const d of [nextJs, oldJs, join(dist, 'types')]) rmSync(d, { recursive: true, force: true });

const entryPoints = { cli: 'cli/main.ts', index: 'src/index.ts', sim: 'sim/index.ts' };
for (const f of readdirSync(join(root, 'sim'), { recursive: true })) {
  const task = f.endsWith('.mjs') && f.slice(0, -'.mjs'.length) + '.ts';
  const entry = f.endsWith('.worker.ts') ? f : task && existsSync(join(root, 'sim', task)) ? task : null;
  if (!entry) continue;
  const name = basename(entry, '.ts');
  if (name in entryPoints)
    throw new Error(`build: two entry points named ${name} (sim/${entry}, ${entryPoints[name]})`);
  entryPoints[name] = `sim/${entry}`;
}

await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist/js.next',
  bundle: true,
  // One copy of every module however many entry points a process loads (the CLI starts the
  // worker entries; a script may import both `lockstep` and `lockstep/sim`).
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});

const project = join(root, 'tsconfig.build.json');
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], { stdio: 'inherit' });
await replaceTscAliasPaths({ configFile: project, resolveFullPaths: true });
// tsc-alias only adds an extension where it finds the emitted .js beside the declaration, so tsc
// emits both; the bundle in dist/js is the package's JavaScript, these copies go.
for (const f of readdirSync(join(dist, 'types'), { recursive: true })) {
  if (f.endsWith('.js')) rmSync(join(dist, 'types', f));
}

if (existsSync(js)) renameSync(js, oldJs);
renameSync(nextJs, js);
rmSync(oldJs, { recursive: true, force: true });
