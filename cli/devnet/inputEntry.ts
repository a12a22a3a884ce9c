/**
 * How a journaled input enters the run at its barrier: a client's service tx or a wallet's
 * sidechain tx is delivered to its node (and the books that answer look-ups learn it entered), an
 * operator's balance or next-block-time override to every sidechain node, a setHead to its node,
 * a fault is started. The same for a live input and a replayed one, so a replay reaches the same
 * state.
 */
import { type Hex } from '../../src/core/bytes';
import { type FaultSpec } from '../../sim/scenario/scenario';
import { type PreparedRun } from '../../sim/run/run';
import { type DevnetConfig } from './home';
import { type JournalInput } from './journal';
import { decodeLiveFault, describeFault } from './faultInput';
import { type InjectedFault } from './liveTypes';
import { type ServiceTxs } from './serviceTxs';
import { type SidechainTxs } from './sidechainTxs';

export interface EntryBooks {
  serviceTxs: ServiceTxs;
  sidechainTxs: SidechainTxs;
}

/** Enter `e` into `run`; the fault it started, if it is one. */
export function enterInput(
  run: PreparedRun,
  e: JournalInput,
  config: DevnetConfig,
  books: EntryBooks,
): InjectedFault | null {
  switch (e.k) {
    case 'tx':
      books.serviceTxs.entered(e);
      run.main.deliverExternal(e.node, { kind: 'client.tx', tx: e.tx as Hex });
      return null;
    case 'scTx': {
      const at = run.sidechain.deliverExternal(e.node, { kind: 'sc.submit', raw: e.tx as Hex });
      books.sidechainTxs.entered(Number(e.node.slice(3)), e.tx as Hex, at);
      return null;
    }
    case 'scBalance':
      for (const n of run.sidechain.sidechainNodes)
        run.sidechain.deliverExternal(n.id, {
          kind: 'op.setBalance',
          address: e.address as `0x${string}`,
          balance: BigInt(e.balance),
        });
      return null;
    case 'scTime':
      for (const n of run.sidechain.sidechainNodes)
        run.sidechain.deliverExternal(n.id, { kind: 'op.nextBlockTime', timeS: BigInt(e.timeS) });
      return null;
    case 'setHead':
      run.sidechain.deliverExternal(e.node, { kind: 'op.setHead', number: BigInt(e.n) });
      return null;
    case 'fault': {
      const f: FaultSpec = decodeLiveFault(e.f, config.scenario);
      const { index, atMs } = run.injectFault(f);
      return {
        index,
        kind: f.kind,
        fault: e.f,
        description: describeFault(e.f),
        barrier: e.b,
        atMs,
        endsAtMs: f.forMs === undefined ? null : atMs + f.forMs,
      };
    }
  }
}
