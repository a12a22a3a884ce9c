/** The clerk module: state-sync event records relayed from the parent chain (MsgEventRecord). */
import { type EmptyGenesis } from '../framework/emptyGenesis';
import { type Module } from '../framework/module';
import { ClerkErrors } from './errors';
import { CLERK_GENESIS } from './genesis';
import { CLERK_INVARIANTS } from './invariants';
import { MsgEventRecordDef } from './msgs';
import { CLERK_PARAMS } from './params';
import { CLERK_QUERIES } from './queries';

export const clerkModule: Module<EmptyGenesis, null> = {
  name: 'clerk',
  msgs: [MsgEventRecordDef],
  queries: CLERK_QUERIES,
  genesis: CLERK_GENESIS,
  errors: ClerkErrors,
  params: CLERK_PARAMS,
  invariants: CLERK_INVARIANTS,
};
