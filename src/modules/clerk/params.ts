/**
 * No params: the clerk module's limits (an event record's data size) are fixed rules of the reference,
 * kept as constants in msgs.ts, not chain params.
 */
import { type ModuleParams } from '../framework/module';

export const CLERK_PARAMS: ModuleParams<null> | null = null;
