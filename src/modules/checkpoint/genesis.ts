/** The checkpoint module's genesis section: its params (`app_state.checkpoint`); no checkpoint acked yet. */
import { asObject, noExtraKeys } from '../framework/decode';
import { type ModuleGenesis } from '../framework/module';
import { getCheckpointParams, setAckCount, setCheckpointParams } from './keeper';
import {
  type CheckpointParams,
  checkpointParamsGenesisJson,
  DEFAULT_CHECKPOINT_PARAMS,
  decodeCheckpointParams,
} from './params';

export interface CheckpointGenesis {
  params: CheckpointParams;
}

export const CHECKPOINT_GENESIS: ModuleGenesis<CheckpointGenesis> = {
  key: 'checkpoint',
  defaults: () => ({ params: DEFAULT_CHECKPOINT_PARAMS }),
  decode(value, path) {
    const o = asObject(value ?? {}, path);
    noExtraKeys(o, ['params'], path);
    return { params: decodeCheckpointParams(o.params ?? {}, `${path}.params`) };
  },
  init(store, g) {
    setCheckpointParams(store, g.params);
    setAckCount(store, 0n);
  },
  export: (store) => ({ params: checkpointParamsGenesisJson(getCheckpointParams(store)) }),
};
