import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { checkTree, formatFindings, tidyRoot } from './tidy';

describe('tidy: the determinism contract and the import direction', () => {
  it('the project tree is tidy', () => {
    const vs = checkTree(tidyRoot());
    expect(formatFindings(vs)).toBe('');
  });
});

describe('tidy catches what it exists for', () => {
  const plant = (files: Record<string, string>): string => {
    const root = mkdtempSync(join(tmpdir(), 'lockstep-tidy-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it('a planted Date.now in a module, with the hint', () => {
    const root = plant({ 'src/modules/x/keeper.ts': 'export const t = () => Date.now();\n' });
    try {
      const vs = checkTree(root);
      expect(vs).toHaveLength(1);
      expect(vs[0]).toMatchObject({ file: 'src/modules/x/keeper.ts', line: 1, rule: 'banned-api' });
      expect(vs[0]!.message).toMatch(/Date\.now is banned here: use the engine clock/);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('every banned API, but not in comments, tests or real adapters', () => {
    const root = plant({
      'sim/env/bad.ts': [
        'Math.random();',
        'new Date(0);',
        'performance.now();',
        'setTimeout(f, 1);',
        'setInterval(f, 1);',
        'setImmediate(f);',
        'crypto.randomBytes(4);',
        '[3,1].sort();',
        "'a'.localeCompare('b');",
        '// Date.now() in a comment is fine',
        '[3,1].sort((a, b) => a - b);',
      ].join('\n'),
      'sim/env/bad.test.ts': 'Date.now();\n',
      'src/node/realClock.ts': 'export const now = () => Date.now();\n',
      'cli/main.ts': 'setTimeout(() => {}, 1);\n',
    });
    try {
      const vs = checkTree(root);
      expect(vs.map((v) => v.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(vs.every((v) => v.file === 'sim/env/bad.ts')).toBe(true);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('imports against the direction', () => {
    const root = plant({
      'src/core/a.ts': "import { x } from '../store/kv';\n",
      'src/sidechain/b.ts': "import { y } from '../modules/staking/keeper';\n",
      'src/app/c.ts': "import { z } from '../../sim/engine/engine';\n",
      'src/modules/d.ts': "import { ok } from '../core/errors';\nimport { kv } from '../store/kv';\n",
      'cli/e.ts': "import { Engine } from '../sim/engine/engine';\nimport { ok } from '../src/core/errors';\n",
      'src/index.ts': "export { run } from '../sim/cluster';\n",
      // A multi-line import and a type-only one count as much as any other.
      'src/client/f.ts': "import {\n  type RunResult,\n} from '../../sim/run/runResult';\n",
      'sim/run/g.ts': "import { type Flags } from '../../cli/flags';\n",
      'src/rpc/h.ts': "import { main } from '../../cli/main';\n",
    });
    try {
      const vs = checkTree(root);
      expect(vs.map((v) => v.file).sort()).toEqual([
        'sim/run/g.ts',
        'src/app/c.ts',
        'src/client/f.ts',
        'src/core/a.ts',
        'src/index.ts',
        'src/rpc/h.ts',
        'src/sidechain/b.ts',
      ]);
      expect(vs.every((v) => v.rule === 'import-direction')).toBe(true);
      expect(vs.find((v) => v.file === 'src/app/c.ts')!.message).toMatch(/src\/app must not import sim\//);
      expect(vs.find((v) => v.file === 'sim/run/g.ts')!.message).toMatch(/sim\/ must not import cli\//);
      expect(vs.find((v) => v.file === 'src/client/f.ts')!.line).toBe(1);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('sim/ in floors: an import of a higher floor, or a folder on no floor', () => {
    const root = plant({
      'sim/env/net.ts': "import { type MainDomain } from '../domain/mainDomain';\n",
      'sim/domain/mainDomain.ts': "import { Network } from '../env/net';\nexport class MainDomain {}\n",
      'sim/run/run.ts': "import { MainDomain } from '../domain/mainDomain';\n",
      'sim/oracles/o.ts': "import { type W } from '../workload/w';\n",
      'sim/workload/w.ts': 'export type W = 1;\n',
      'sim/annex/a.ts': "import { x } from '../core/x';\n",
      'sim/core/x.ts': 'export const x = 1;\n',
    });
    try {
      const vs = checkTree(root);
      expect(vs.map((v) => `${v.file} ${v.rule}`).sort()).toEqual([
        'sim/annex/a.ts import-direction',
        'sim/env/net.ts import-direction',
        'sim/oracles/o.ts import-direction',
      ]);
      expect(vs.find((v) => v.file === 'sim/env/net.ts')!.message).toMatch(
        /sim\/env\/ \(floor 4\) must not import sim\/domain\/ \(floor 8\)/,
      );
      // Two folders on one floor do not know each other.
      expect(vs.find((v) => v.file === 'sim/oracles/o.ts')!.message).toMatch(/must not import sim\/workload\//);
      expect(vs.find((v) => v.file === 'sim/annex/a.ts')!.message).toMatch(/stands on no floor of sim\//);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('a loop of three files is refused, type imports included; a loop of two is tolerated', () => {
    const root = plant({
      'src/core/a.ts': "import { type B } from './b';\nexport type A = 1;\n",
      'src/core/b.ts': "import {\n  type C,\n} from './c';\nexport type B = 1;\n",
      'src/core/c.ts': "export { type A } from './a';\nexport type C = 1;\n",
      'src/core/d.ts': "import { e } from './e';\nexport const d = 1;\n",
      'src/core/e.ts': "import { d } from './d';\nexport const e = 1;\n",
    });
    try {
      const vs = checkTree(root);
      expect(vs).toHaveLength(1);
      expect(vs[0]).toMatchObject({ file: 'src/core/a.ts', rule: 'import-cycle' });
      expect(vs[0]!.message).toMatch(
        /3 files import each other in a loop \(src\/core\/a\.ts, src\/core\/b\.ts, src\/core\/c\.ts\)/,
      );
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('oracles import no rule code: values only from sim/oracles and the byte and hash helpers', () => {
    const root = plant({
      'sim/oracles/good.ts': [
        "import { keccak256Raw } from '../../src/core/hash';",
        "import { fromHex, toHex } from '../../src/core/bytes';",
        "import { type Address } from '../../src/core/address';",
        "import type { SidechainConfig } from '../../src/sidechain/config';",
        "import { Oracle } from './oracle';",
        "import { PrioritySet } from './model/proposerPriority';",
        "export type { RunRecord } from '../core/record';",
      ].join('\n'),
      'sim/oracles/bad.ts': [
        "import { ValidatorSet } from '../../src/core/validatorSet';",
        'import {',
        '  type ProducerDelayParams,',
        '  calcProducerDelay,',
        "} from '../../src/sidechain/config';",
        "import { merkleRootBytes } from '../../src/core/merkle';",
        "import { decodeScenario } from '../scenario/scenario';",
        "export { compareHeads } from '../../src/sidechain/forkChoice';",
        "import '../../src/modules/registry';",
        "const m = await import('../../src/app/serviceApp');",
      ].join('\n'),
      'sim/oracles/bad.test.ts': "import { ValidatorSet } from '../../src/core/validatorSet';\n",
      'sim/report/elsewhere.ts': "import { ValidatorSet } from '../../src/core/validatorSet';\n",
    });
    try {
      const vs = checkTree(root);
      expect(vs.every((v) => v.file === 'sim/oracles/bad.ts' && v.rule === 'oracle-imports')).toBe(true);
      expect(vs.map((v) => v.line)).toEqual([1, 2, 6, 7, 8, 9, 10]);
      expect(vs[0]!.message).toMatch(
        /must not import values from src\/core\/validatorSet: an oracle keeps its own model/,
      );
      expect(vs[1]!.message).toMatch(/src\/sidechain\/config/);
      expect(vs[2]!.message).toMatch(/src\/core\/merkle/);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('a module-level Map, WeakMap or Set that is not a read-only table (a hidden cache)', () => {
    const root = plant({
      'src/core/x.ts': [
        'const cache = new Map<string, number>();',
        'export const seen = new WeakMap<object, boolean>();',
        'let names = new Set();',
        "const TABLE: ReadonlyMap<string, number> = new Map([['a', 1]]);",
        'const KINDS: ReadonlySet<string> = new Set([]);',
        '  const local = new Map();',
      ].join('\n'),
      'src/core/memo.ts': 'const caches = new Map();\n',
    });
    try {
      const vs = checkTree(root);
      expect(vs.map((v) => [v.file, v.line, v.rule])).toEqual([
        ['src/core/x.ts', 1, 'module-cache'],
        ['src/core/x.ts', 2, 'module-cache'],
        ['src/core/x.ts', 3, 'module-cache'],
      ]);
      expect(vs[0]!.message).toMatch(/boundedMemo\/weakMemo/);
    } finally {
      rmSync(root, { recursive: true });
    }
  });
});
