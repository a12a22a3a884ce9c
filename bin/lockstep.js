#!/usr/bin/env node
// The `lockstep` command: load the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
