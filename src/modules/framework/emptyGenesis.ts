/**
 * The genesis section of a module that starts with nothing (clerk: no event records; topup: no
 * dividends or replay keys yet): `{}` or absent; any field is refused by name.
 */
import { InputError } from '../../core/errors';
import { asObject } from './decode';
import { type ModuleGenesis } from './module';

export type EmptyGenesis = Record<string, never>;

export function emptyGenesis(key: string): ModuleGenesis<EmptyGenesis> {
  return {
    key,
    defaults: () => ({}),
    decode(value, path) {
      for (const k of Object.keys(asObject(value ?? {}, path)))
        throw new InputError(`${path}.${k}`, 'unknown field (this section has no fields)');
      return {};
    },
    init() {},
    export: () => ({}),
  };
}
