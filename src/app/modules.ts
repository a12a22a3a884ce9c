/**
 * The service's modules, in genesis order: a module may read at genesis what an earlier one wrote
 * (the span module builds span 0 from the staking module's validator set and the chain id). The
 * app builds everything module-wide from this list: the genesis document (genesis.ts), the message
 * registry (registry.ts), the query router and the invariant check (invariantCheck.ts).
 */
import { type Module } from '../modules/framework/module';
import { authModule } from '../modules/auth/module';
import { bankModule } from '../modules/bank/module';
import { chainModule } from '../modules/chain/module';
import { checkpointModule } from '../modules/checkpoint/module';
import { clerkModule } from '../modules/clerk/module';
import { spanModule } from '../modules/span/module';
import { stakingModule } from '../modules/staking/module';
import { topupModule } from '../modules/topup/module';
import { QueryRouter } from './queryRouter';

export const MODULES: readonly Module[] = [
  chainModule,
  authModule,
  bankModule,
  stakingModule,
  spanModule,
  checkpointModule,
  topupModule,
  clerkModule,
] as readonly Module[];

/** Every module's GET paths (paths of different modules never overlap; within one, first match wins). */
export const QUERY_ROUTER = new QueryRouter(MODULES.flatMap((m) => m.queries));
