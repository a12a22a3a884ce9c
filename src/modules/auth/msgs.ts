/**
 * The auth module has no messages: accounts are created by the first transfer to them and their
 * sequences move in the ante handler (ante.ts) that every transaction passes; the reference's auth
 * module defines no message either.
 */
import { type MsgDef } from '../framework/msgDef';

export const AUTH_MSGS: readonly MsgDef[] = [];
