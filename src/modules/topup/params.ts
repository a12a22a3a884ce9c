/**
 * No params: the relayer's reward taken from each top-up is the auth module's default `tx_fees`
 * (msgs.ts takes it from there); the topup module keeps none of its own.
 */
import { type ModuleParams } from '../framework/module';

export const TOPUP_PARAMS: ModuleParams<null> | null = null;
