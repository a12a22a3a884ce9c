import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { InputError } from '../src/core/errors';
import { parseBenchCommand } from './benchCli';

/** A bench command line with one command that records whether its handler ran. */
function bench(argv: string[], handler: () => void = () => {}) {
  const said: string[] = [];
  const ran: string[] = [];
  const parser = yargs(argv).command(
    ['run', '$0'],
    'run it',
    (y) => y.option('budget', { type: 'number' }),
    (a) => {
      ran.push(`run ${a.budget ?? ''}`);
      handler();
    },
  );
  return { said, ran, code: parseBenchCommand(parser, 'demo', (s) => said.push(s)) };
}

describe('parseBenchCommand', () => {
  it('runs the command and returns null when the line is good', async () => {
    const b = bench(['run', '--budget', '5']);
    expect(await b.code).toBeNull();
    expect(b.ran).toEqual(['run 5']);
    expect(b.said).toEqual([]);
  });

  it('an unknown flag is exit 1 with the flag named, and the command never runs', async () => {
    const b = bench(['--nope']);
    expect(await b.code).toBe(1);
    expect(b.ran).toEqual([]);
    expect(b.said.join('\n')).toMatch(/^demo: Unknown argument: nope\n\(see npm run bench -- demo --help\)$/);
  });

  it("a handler's InputError is exit 1 with its message, not a stack", async () => {
    const b = bench(['run'], () => {
      throw new InputError('--budget', 'must be positive');
    });
    expect(await b.code).toBe(1);
    expect(b.said).toEqual(['demo: --budget: must be positive']);
  });

  it('any other error is not bad input: it propagates', async () => {
    const b = bench(['run'], () => {
      throw new Error('broken invariant');
    });
    await expect(b.code).rejects.toThrow('broken invariant');
  });
});
