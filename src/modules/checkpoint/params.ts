/** Checkpoint parameters: defaults, the genesis form (buffer time in ms) and the query JSON (in ns). */
import { InputError } from '../../core/errors';
import { asObject, noExtraKeys, optUint64 } from '../framework/decode';

export interface CheckpointParams {
  checkpointBufferTimeMs: bigint;
  avgCheckpointLength: bigint;
  maxCheckpointLength: bigint;
  childBlockInterval: bigint;
}

export const DEFAULT_CHECKPOINT_PARAMS: CheckpointParams = {
  checkpointBufferTimeMs: 1_000_000n,
  avgCheckpointLength: 256n,
  maxCheckpointLength: 1024n,
  childBlockInterval: 10_000n,
};

/** The reference's params JSON: buffer time as Go Duration nanoseconds. */
export function checkpointParamsJson(p: CheckpointParams): Record<string, number> {
  return {
    checkpoint_buffer_time: Number(p.checkpointBufferTimeMs * 1_000_000n),
    avg_checkpoint_length: Number(p.avgCheckpointLength),
    max_checkpoint_length: Number(p.maxCheckpointLength),
    child_chain_block_interval: Number(p.childBlockInterval),
  };
}

/** The genesis form (`checkpoint_buffer_time_ms`); every field optional, errors name the field. */
export function decodeCheckpointParams(value: unknown, path: string): CheckpointParams {
  const o = asObject(value, path);
  noExtraKeys(
    o,
    ['checkpoint_buffer_time_ms', 'avg_checkpoint_length', 'max_checkpoint_length', 'child_chain_block_interval'],
    path,
  );
  const D = DEFAULT_CHECKPOINT_PARAMS;
  const params: CheckpointParams = {
    checkpointBufferTimeMs: optUint64(o, 'checkpoint_buffer_time_ms', path, D.checkpointBufferTimeMs),
    avgCheckpointLength: optUint64(o, 'avg_checkpoint_length', path, D.avgCheckpointLength),
    maxCheckpointLength: optUint64(o, 'max_checkpoint_length', path, D.maxCheckpointLength),
    childBlockInterval: optUint64(o, 'child_chain_block_interval', path, D.childBlockInterval),
  };
  if (params.checkpointBufferTimeMs < 1000n)
    throw new InputError(`${path}.checkpoint_buffer_time_ms`, 'must be at least 1000');
  return params;
}

/** The genesis form of the params (what decodeCheckpointParams reads). */
export function checkpointParamsGenesisJson(p: CheckpointParams): Record<string, string> {
  return {
    checkpoint_buffer_time_ms: p.checkpointBufferTimeMs.toString(),
    avg_checkpoint_length: p.avgCheckpointLength.toString(),
    max_checkpoint_length: p.maxCheckpointLength.toString(),
    child_chain_block_interval: p.childBlockInterval.toString(),
  };
}
