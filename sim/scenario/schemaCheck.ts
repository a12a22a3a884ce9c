/**
 * Validating a scenario file with its JSON Schema (ajv) and wording the first error as the rest of
 * the decoder does: the field's path (`faults[2].node`), then what was expected and what was
 * there. Where the schema marks a value `x-code` (a duration's unit, an amount, a node of this
 * scenario, a validator of this set), the decoder's code words the error instead.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { InputError } from '../../src/core/errors';
import { describeValue } from '../core/reader';
import { scenarioSchema } from './schema';
import { FAULT_KINDS } from '../faults/registry';

type Schema = Record<string, unknown>;

const ajv = new Ajv2020({ allErrors: false, verbose: true, discriminator: true, strict: true });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
ajv.addKeyword({ keyword: 'x-code', schemaType: 'boolean' });

let schema: Schema | null = null;
let compiled: ReturnType<typeof ajv.compile> | null = null;
const schemaOnce = (): Schema => {
  schema ??= scenarioSchema();
  return schema;
};
const schemaValidator = () => {
  compiled ??= ajv.compile(schemaOnce());
  return compiled;
};

/** The schema's verdict: null (valid), or the first error and whether the decoder's code words it. */
export function checkScenarioSchema(value: unknown): { error: InputError; byCode: boolean } | null {
  const validate = schemaValidator();
  if (validate(value)) return null;
  const e = validate.errors![0]!;
  return { error: wordError(e), byCode: markedForCode(e) };
}

/** `/faults/2/node` → `faults[2].node`. */
function fieldOf(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'true or false',
  null: 'null',
};

/** One ajv error in the decoder's words (`root` names the file's kind when the error is about the whole file). */
export function wordError(e: ErrorObject, root = 'scenario'): InputError {
  const field = fieldOf(e.instancePath) || root;
  const parent = (e.parentSchema ?? {}) as Schema;
  const data = e.data as unknown;
  const got = describeValue(data);
  switch (e.keyword) {
    case 'type': {
      const types = ([] as string[]).concat(e.params.type as string | string[]);
      return new InputError(field, `expected ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}, got ${got}`);
    }
    case 'required':
      return new InputError(fieldOf(e.instancePath, e.params.missingProperty as string), 'is required');
    case 'additionalProperties':
      return new InputError(
        fieldOf(e.instancePath, e.params.additionalProperty as string),
        `unknown field (allowed: ${Object.keys((parent.properties ?? {}) as Schema).join(', ')})`,
      );
    case 'discriminator': {
      const kind = (data as Schema | null)?.kind;
      const at = fieldOf(e.instancePath, 'kind');
      if (kind === undefined) return new InputError(at, 'is required');
      if (typeof kind !== 'string') return new InputError(at, `expected a string, got ${describeValue(kind)}`);
      return new InputError(at, `unknown fault kind ${describeValue(kind)}; kinds: ${FAULT_KINDS.join(', ')}`);
    }
  }
  const message = parent['x-message'];
  if (typeof message === 'string') {
    const n = Array.isArray(data)
      ? data.length
      : data !== null && typeof data === 'object'
        ? Object.keys(data).length
        : 0;
    return new InputError(field, message.replace('{got}', got).replace('{n}', String(n)));
  }
  switch (e.keyword) {
    case 'minimum':
    case 'maximum':
      return new InputError(
        field,
        `must be between ${parent.minimum ?? Number.MIN_SAFE_INTEGER} and ${parent.maximum ?? Number.MAX_SAFE_INTEGER}, got ${got}`,
      );
    case 'enum':
      return new InputError(field, `expected one of ${(e.params.allowedValues as unknown[]).join(', ')}, got ${got}`);
    default:
      return new InputError(field, `${e.message ?? 'is not valid'}, got ${got}`);
  }
}

/** Does a node on the error's schema path (the value or one containing it) leave the wording to the code? */
function markedForCode(e: ErrorObject): boolean {
  let node: unknown = schemaOnce();
  for (const seg of e.schemaPath.replace(/^#\//, '').split('/')) {
    if (node === null || typeof node !== 'object') return false;
    if ((node as Schema)['x-code'] === true) return true;
    node = (node as Schema)[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return false;
}
