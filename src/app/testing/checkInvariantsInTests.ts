/**
 * Vitest setup: every service app a test creates checks the modules' invariants at the end of
 * every block it executes (invariantCheck.ts), unless the test says otherwise. A run outside the
 * tests checks them only with `lockstep run --check-invariants`.
 */
import { setInvariantChecksByDefault } from '../invariantCheck';

setInvariantChecksByDefault(true);
