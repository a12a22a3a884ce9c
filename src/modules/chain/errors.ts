/**
 * The chain module registers no codes of its own: it has no messages, and its params are checked
 * when the genesis document is decoded (an InputError naming the field), never by a transaction.
 */
import { type ResultError } from '../../core/errors';

export const ChainErrors: Readonly<Record<string, ResultError>> = {};
