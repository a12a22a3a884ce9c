/**
 * Every link in the repository's markdown files resolves inside the repository (external http(s)
 * links aside), and no document sends its reader to the notes outside it. The checker is shown
 * to fire on planted bad links.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMarkdownLinks, markdownFiles, markdownLinks } from './markdownLinks';
import { tidyRoot } from './tidy';

const root = tidyRoot();

describe('markdown links', () => {
  it('every link of every markdown file of the repository resolves inside it', () => {
    const files = markdownFiles(root);
    for (const f of ['README.md', 'docs/ARCHITECTURE.md', 'docs/SCENARIOS.md', 'docs/GLOSSARY.md', 'reports/README.md'])
      expect(files, f).toContain(f);
    expect(files.some((f) => f.includes('node_modules/'))).toBe(false);
    const bad = checkMarkdownLinks(root, files);
    expect(bad.map((b) => `${b.file}:${b.line}: ${b.target}: ${b.problem}`)).toEqual([]);
  });

  it('no markdown file points its reader at the notes beside the repository (../shared/…)', () => {
    const mentions = markdownFiles(root).filter((f) => /\.\.\/shared\//.test(readFileSync(join(root, f), 'utf8')));
    expect(mentions).toEqual([]);
  });

  it('the README links the documentation', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = markdownLinks(readme).map((l) => l.target);
    for (const d of ['docs/ARCHITECTURE.md', 'docs/SCENARIOS.md', 'docs/GLOSSARY.md']) expect(targets).toContain(d);
  });

  it('finds inline links, images and definitions, but not code', () => {
    const text = [
      'See [a](docs/a.md) and ![img](pic.png "title") and [b](<angle.md>).',
      '[ref]: ../out.md',
      'Code `[x](nope.md)` is not a link.',
      '```md',
      '[y](neither.md)',
      '```',
      '[c](#heading) [d](https://example.com/x)',
    ].join('\n');
    expect(markdownLinks(text)).toEqual([
      { line: 1, target: 'docs/a.md' },
      { line: 1, target: 'pic.png' },
      { line: 1, target: 'angle.md' },
      { line: 2, target: '../out.md' },
      { line: 7, target: '#heading' },
      { line: 7, target: 'https://example.com/x' },
    ]);
  });

  it('fires on a link out of the repository, a missing file, an absolute path and another scheme', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-links-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'ok.md'), '# ok\n');
      writeFileSync(
        join(dir, 'README.md'),
        [
          '[fine](docs/ok.md) [fine too](docs/ok.md#ok) [here](#top) [web](https://example.com)',
          '[out](../shared/spec/service-spec.md)',
          '[gone](docs/missing.md)',
          '[abs](/etc/passwd)',
          '[file](file:///etc/passwd)',
        ].join('\n'),
      );
      writeFileSync(join(dir, 'docs', 'deep.md'), '[up](../../x.md) [back](../README.md)\n');
      const found = checkMarkdownLinks(dir, ['README.md', 'docs/deep.md']);
      expect(found.map((f) => [f.file, f.line, f.target, f.problem])).toEqual([
        ['README.md', 2, '../shared/spec/service-spec.md', 'points outside the repository'],
        ['README.md', 3, 'docs/missing.md', 'no such file in the repository (docs/missing.md)'],
        ['README.md', 4, '/etc/passwd', 'an absolute path: link relative to this file'],
        ['README.md', 5, 'file:///etc/passwd', 'only http(s) and mailto links may leave the repository'],
        ['docs/deep.md', 1, '../../x.md', 'points outside the repository'],
      ]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
