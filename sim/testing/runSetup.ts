/**
 * Vitest setup for every test file: each starts with the process-wide caches empty (no file leans
 * on another's cached work; src/core/memo.ts), and every service app a test creates checks the
 * modules' invariants at the end of every block it executes (src/app/invariantCheck.ts), unless
 * the test says otherwise. A run outside the tests checks them only with `--check-invariants`.
 */
import { clearCaches } from '../../src/core/memo';
import { setInvariantChecksByDefault } from '../../src/app/invariantCheck';

clearCaches();
setInvariantChecksByDefault(true);
