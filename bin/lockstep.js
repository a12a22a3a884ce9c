#!/usr/bin/env node
// The `lockstep` command: the compiled CLI in dist/js/ (scripts/build.mjs; `npm install` builds it
// through `prepare`). Plain Node, no TypeScript loader at start.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cliUrl = new URL('../dist/js/cli.js', import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(cliUrl);

// In a source checkout (src/ is not shipped in the package) say when the build is missing or
// older than the sources, so an edit is never silently ignored.
if (existsSync(`${root}src`)) {
  const run = 'run `npm run build`, or run the sources: `npx tsx cli/main.ts ...`';
  if (!existsSync(cli)) {
    process.stderr.write(`lockstep: the CLI is not built (no dist/js/cli.js): ${run}\n`);
    process.exit(1);
  }
  const builtMs = statSync(cli).mtimeMs;
  const changed = newerSource(builtMs);
  if (changed) process.stderr.write(`lockstep: warning: ${changed} changed after the last build; ${run}\n`);
}

await import(cliUrl.href);

/** A non-test TypeScript source under src/, sim/ or cli/ modified after `ms`, or null. */
function newerSource(ms) {
  for (const dir of ['src', 'sim', 'cli']) {
    for (const f of readdirSync(`${root}${dir}`, { recursive: true })) {
      if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
      if (statSync(`${root}${dir}/${f}`).mtimeMs > ms) return `${dir}/${f}`;
    }
  }
  return null;
}
