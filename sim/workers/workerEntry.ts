/**
 * Where a worker thread starts. This code runs two ways:
 * - from the TypeScript sources (vitest, tsx, `npm start`): a worker does not inherit the parent's
 *   loader hooks, so it starts in a small .mjs loader that registers tsx and then imports the .ts
 *   module (bootstrap.mjs for the sidechain worker; `X.mjs` beside a piscina task `X.ts`);
 * - compiled (dist/js/, scripts/build.mjs): every worker entry is bundled into dist/js/ beside the
 *   chunk that holds the code starting it, and loads directly, without tsx.
 */

/** Whether the module whose `import.meta.url` this is runs from its TypeScript source. */
export function fromSource(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.ts');
}

/**
 * The module a piscina pool loads for the task `name` (e.g. 'fuzzTask'), which lives beside the
 * caller: from source its loader `name.mjs`, compiled the bundled `name.js`.
 */
export function taskModuleUrl(callerUrl: string, name: string): URL {
  return new URL(`./${name}${fromSource(callerUrl) ? '.mjs' : '.js'}`, callerUrl);
}
