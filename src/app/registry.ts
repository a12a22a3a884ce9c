/** Every message the service handles, by amino type name, from the modules (modules.ts). */
import { assert } from '../core/errors';
import { type MsgDef } from '../modules/framework/msgDef';
import { MODULES } from './modules';

export const MSG_DEFS: readonly MsgDef[] = MODULES.flatMap((m) => m.msgs);

export const MSG_REGISTRY: ReadonlyMap<string, MsgDef> = new Map(MSG_DEFS.map((d) => [d.type, d]));

assert(MSG_REGISTRY.size === MSG_DEFS.length, 'every message type is defined by one module', {
  types: MSG_DEFS.map((d) => d.type),
});
