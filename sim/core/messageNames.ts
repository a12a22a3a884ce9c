/**
 * The names the testbed gives the service's messages: each message type's name in the spec's
 * client table (MsgDef.name), by the amino name a transaction carries, in the order the modules
 * define them, and the name of bytes that decode to no transaction. Scenario files, reports and
 * campaign summaries all use these names.
 */
import { MSG_DEFS } from '../../src/app/registry';

export const MESSAGE_NAMES: ReadonlyMap<string, string> = new Map(MSG_DEFS.map((d) => [d.type, d.name]));

/** Bytes a block carried that do not decode to a transaction. */
export const UNDECODABLE = 'undecodable';
