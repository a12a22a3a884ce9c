/**
 * The chain module has no messages: its params are set in the genesis document and read by the
 * side handlers; the reference (Heimdall's chainmanager) defines no message to change them either.
 */
import { type MsgDef } from '../framework/msgDef';

export const CHAIN_MSGS: readonly MsgDef[] = [];
