/** The clerk module: state-sync event records relayed from the parent chain (MsgEventRecord). */
import { emptyGenesis, type EmptyGenesis } from '../framework/emptyGenesis';
import { type Module } from '../framework/module';
import { ClerkErrors } from './errors';
import { CLERK_INVARIANTS } from './invariants';
import { MsgEventRecordDef } from './msgs';
import { CLERK_QUERIES } from './queries';

export const clerkModule: Module<EmptyGenesis, null> = {
  name: 'clerk',
  msgs: [MsgEventRecordDef],
  queries: CLERK_QUERIES,
  genesis: emptyGenesis('clerk'),
  errors: ClerkErrors,
  params: null,
  invariants: CLERK_INVARIANTS,
};
