/**
 * The auth module registers no codes of its own: its ante handler (ante.ts) rejects with the SDK
 * root codespace's (unauthorized, insufficient funds, invalid sequence, out of gas, ...), which
 * every module shares and framework/errors.ts registers.
 */
import { type ResultError } from '../../core/errors';

export const AuthErrors: Readonly<Record<string, ResultError>> = {};
