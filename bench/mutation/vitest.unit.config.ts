/**
 * The unit project alone, for Stryker's vitest runner (it has no project option: it runs every
 * project of the config it is given). Same files, setup and pool as `npm test -- --project unit`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SHARED_TEST, UNIT_PROJECT } from '../../vitest.config';

export default defineConfig({
  root: join(dirname(fileURLToPath(import.meta.url)), '..', '..'),
  test: { ...SHARED_TEST, ...UNIT_PROJECT, exclude: [...UNIT_PROJECT.exclude] },
});
