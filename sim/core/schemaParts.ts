/**
 * Pieces of the scenario file's JSON Schema (sim/scenario/schema.ts) that the scenario and the
 * fault kinds share. Two annotations are for the decoder and left out of the written file:
 * `x-message` words any error of that node other than a wrong type, a missing or an unknown field
 * (`{got}` is the value, `{n}` its length or field count); `x-code` says the decoder's own code
 * checks that value and words its error (a duration's unit, an amount, a node id of this scenario,
 * a validator index within this set).
 */
export type Schema = Record<string, unknown>;

/** The most validators a scenario may have (the parent chain's slots cap the set; mainnet's cap is 105). */
export const MAX_VALIDATORS = 256;
/** The most extra sidechain dev accounts a scenario may fund (`params.sidechainDevAccounts`). */
export const MAX_DEV_ACCOUNTS = 64;

export const DURATION: Schema = {
  description: 'a duration with a unit: 1500ms, 90s, 10m, 2h, 1h30m, 1d (0 needs none)',
  anyOf: [{ type: 'string', pattern: '^([0-9]+(ms|s|m|h|d))+$' }, { const: 0 }, { const: '0' }],
  'x-code': true,
};

export const UINT: Schema = {
  description: 'a whole number, as a JSON integer or a decimal string',
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^[0-9]+$' },
  ],
  'x-code': true,
};

export const int = (minimum: number, maximum?: number, description?: string): Schema => ({
  type: 'integer',
  minimum,
  ...(maximum !== undefined ? { maximum } : {}),
  ...(description ? { description } : {}),
});

export const PROBABILITY: Schema = {
  type: 'number',
  minimum: 0,
  maximum: 1,
  'x-message': 'expected a probability in [0, 1], got {got}',
};

/** An object with exactly these fields (in this order: an unknown field's error lists them). */
export const object = (properties: Record<string, Schema>, required: readonly string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required: [...required] } : {}),
  additionalProperties: false,
});

export const LINK: Schema = object({
  latency: {
    type: 'array',
    items: DURATION,
    minItems: 2,
    maxItems: 2,
    'x-message': 'expected [min, max] durations, e.g. ["20ms", "80ms"]',
  },
  loss: PROBABILITY,
  duplicate: PROBABILITY,
  reorder: PROBABILITY,
  reorderMax: DURATION,
});

export const NODE_ID: Schema = {
  type: 'string',
  pattern: '^(parent|svc-[1-9][0-9]*|sc-[1-9][0-9]*)$',
  description: 'a node id: parent, svc-N or sc-N',
  'x-code': true,
};

export const NODE_LIST: Schema = { type: 'array', items: NODE_ID };

/** A 1-based validator index (its upper bound is the set's size: the decoder checks it). */
export const VALIDATOR_INDEX: Schema = {
  type: 'integer',
  minimum: 1,
  description: '1-based validator index',
  'x-code': true,
};

export const VALIDATOR_OR_IN_TURN: Schema = {
  description: 'a 1-based validator index, or inTurn: whoever is in turn when the fault fires',
  anyOf: [{ type: 'integer', minimum: 1 }, { const: 'inTurn' }],
  'x-code': true,
};

export const VALIDATOR_LIST: Schema = {
  type: 'array',
  minItems: 1,
  items: VALIDATOR_INDEX,
  'x-message': 'name at least one validator',
};
