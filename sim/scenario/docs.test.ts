/**
 * docs/SCENARIOS.md keeps up with the format: every field of the written schema
 * (scenarios/scenario.schema.json) is named in the section about its part, every fault kind has
 * its own section naming each of its fields, and every JSON example loads with the decoder (a
 * whole scenario as it is; a fragment, a fault or some top-level fields, inside a small scenario).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from './load';
import { decodeScenario } from './decodeScenario';

type Json = Record<string, unknown>;

const DOC_FILE = join(SCENARIOS_DIR, '..', 'docs', 'SCENARIOS.md');
const doc = readFileSync(DOC_FILE, 'utf8');
const schema = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'scenario.schema.json'), 'utf8')) as Json;

const obj = (v: unknown): Json => v as Json;
const props = (s: unknown): Json => (obj(s).properties ?? {}) as Json;
const keys = (s: unknown): string[] => Object.keys(props(s));

/** The text under a heading (through its subsections), or null when there is no such heading. */
function section(text: string, heading: string): string | null {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) return null;
  const level = /^#+/.exec(heading)![0].length;
  let end = start + 1;
  while (end < lines.length) {
    const m = /^(#+)\s/.exec(lines[end]!);
    if (m && m[1]!.length <= level) break;
    end++;
  }
  return lines.slice(start + 1, end).join('\n');
}

/** Where each schema field must be named: a heading and the fields its section must mention. */
function requiredMentions(s: Json): Array<{ heading: string; fields: string[] }> {
  const top = props(s);
  const validators = obj(top.validators).anyOf as Json[];
  const compact = validators.find((v) => v.type === 'object')!;
  const listItem = obj(validators.find((v) => v.type === 'array')!.items);
  const distribution = (obj(props(compact).stake).anyOf as Json[]).find((v) => v.type === 'object')!;
  const workload = props(top.workload);
  const workloadEntries = Object.values(workload).flatMap((w) => keys(obj(w).type === 'array' ? obj(w).items : w));
  const expectProps = props(top.expect);
  const faults = obj(obj(top.faults).items).oneOf as Json[];
  const common = ['kind', 'at', 'atHeight', 'atRound', 'for'];
  const atHeight = faults.flatMap((f) => keys(props(f).atHeight));
  return [
    { heading: '## Top-level fields', fields: Object.keys(top) },
    {
      heading: '## `validators`',
      fields: [...keys(listItem), ...keys(compact), ...keys(distribution)],
    },
    { heading: '## `params`', fields: keys(top.params) },
    { heading: '## `network`', fields: keys(top.network) },
    { heading: '## `faults`', fields: [...common, ...atHeight] },
    ...faults.map((f) => {
      const kind = String(obj(props(f).kind).const);
      return { heading: `### \`${kind}\``, fields: keys(f).filter((k) => !common.includes(k)) };
    }),
    { heading: '## `workload`', fields: [...Object.keys(workload), ...workloadEntries] },
    {
      heading: '## `expect`',
      fields: [...Object.keys(expectProps), ...keys(expectProps.min), ...keys(expectProps.max)],
    },
    { heading: '## `plant`, `seed` and `streams`', fields: ['plant', 'seed', 'streams'] },
    {
      heading: '## `buggify`',
      fields: Object.entries(props(top.buggify)).flatMap(([k, v]) => keys(v).map((f) => `${k}.${f}`)),
    },
  ];
}

/** Each field the page does not name in its section (`heading: field`), or a missing section. */
function missingMentions(text: string, s: Json): string[] {
  const out: string[] = [];
  for (const { heading, fields } of requiredMentions(s)) {
    const body = section(text, heading);
    if (body === null) {
      out.push(`no section "${heading}"`);
      continue;
    }
    for (const f of new Set(fields)) if (!body.includes(`\`${f}\``)) out.push(`${heading}: \`${f}\``);
  }
  return out;
}

/** A small scenario the fragments are put into (four validators, so svc-1..4, sc-1..4, 1..4 exist). */
const BASE: Json = {
  name: 'docs-fragment',
  duration: '10m',
  validators: [{ stake: 100 }, { stake: 100 }, { stake: 100 }, { stake: 100 }],
};

const jsonBlocks = (text: string): string[] => [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** What is wrong with each JSON example (empty: every one loads). */
function exampleProblems(text: string, s: Json): string[] {
  const topKeys = Object.keys(props(s));
  const out: string[] = [];
  jsonBlocks(text).forEach((block, i) => {
    const where = `example ${i + 1} (${block.trim().slice(0, 40)}…)`;
    try {
      const value = JSON.parse(block) as Json;
      if (typeof value.name === 'string') decodeScenario(value);
      else if (typeof value.kind === 'string') decodeScenario({ ...BASE, faults: [value] });
      else {
        const unknown = Object.keys(value).filter((k) => !topKeys.includes(k));
        if (unknown.length > 0) throw new Error(`not a scenario fragment: ${unknown.join(', ')}`);
        decodeScenario({ ...BASE, ...value });
      }
    } catch (e) {
      out.push(`${where}: ${(e as Error).message}`);
    }
  });
  return out;
}

describe('docs/SCENARIOS.md', () => {
  it('names every field of scenarios/scenario.schema.json in the section about its part', () => {
    expect(missingMentions(doc, schema)).toEqual([]);
  });

  it('has a section for every fault kind of the schema', () => {
    const kinds = (obj(obj(props(schema).faults).items).oneOf as Json[]).map((f) => obj(props(f).kind).const);
    expect(kinds.length).toBeGreaterThan(15);
    for (const k of kinds) expect(section(doc, `### \`${String(k)}\``), String(k)).not.toBeNull();
  });

  it('every JSON example loads with the decoder (whole scenarios, faults and fragments)', () => {
    const blocks = jsonBlocks(doc);
    expect(blocks.filter((b) => /"name"\s*:/.test(b)).length).toBeGreaterThanOrEqual(3);
    expect(exampleProblems(doc, schema)).toEqual([]);
  });

  it('the checks fire: a field left out, a kind without its section, an example the decoder refuses', () => {
    const withoutJitter = doc.replace(/`jitter`/g, 'jitter');
    expect(missingMentions(withoutJitter, schema)).toEqual(['## `params`: `jitter`']);
    const withoutSection = doc.replace('### `splitVote`', '### split votes');
    expect(missingMentions(withoutSection, schema)).toEqual(['no section "### `splitVote`"']);
    const withNewField = structuredClone(schema);
    obj(props(withNewField).params).properties = { ...props(props(withNewField).params), newKnob: {} };
    expect(missingMentions(doc, withNewField)).toEqual(['## `params`: `newKnob`']);

    const bad = [
      '```json\n{ "name": "x", "duration": 240, "validators": [{ "stake": 1 }] }\n```',
      '```json\n{ "kind": "crash", "node": "svc-9" }\n```',
      '```json\n{ "params": { "sprint": 0 } }\n```',
      '```json\n{ "paramz": {} }\n```',
      '```json\n{ "name": "ok", "duration": "1m", "validators": [{ "stake": 1 }] }\n```',
    ].join('\n');
    const problems = exampleProblems(bad, schema);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^example 1 .*duration: a bare number is ambiguous/);
    expect(problems[1]).toMatch(/^example 2 .*faults\[0\]\.node: unknown node "svc-9"/);
    expect(problems[2]).toMatch(/^example 3 .*params\.sprint/);
    expect(problems[3]).toMatch(/^example 4 .*not a scenario fragment: paramz/);
  });
});
