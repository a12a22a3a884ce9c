/**
 * The sidechain domain's clients, as a scenario's `workload` describes them: wallets that sign
 * transfers and send them to a node, as eth_sendRawTransaction does on a devnet (`sidechainTxs`),
 * and an operator's anvil_setBalance (`balanceOverrides`). They act through their client port
 * only, on events the sidechain domain hands them.
 */
import { type Hex } from '../../src/core/bytes';
import { type SignatureScheme, fastScheme } from '../../src/core/signatureScheme';
import { type NodeMessage } from '../../src/node/messages';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { SUGGESTED_TIP, nextBaseFee } from '../../src/sidechain/baseFee';
import { TRANSFER_GAS, signTransfer } from '../../src/sidechain/transaction';
import { type UserKey } from '../core/runKeys';
import { type Rng } from '../env/rng';
import { type WorkloadSpec } from '../scenario/scenario';

/** A sidechain workload event (the encoding the trace holds: `{"w":what,"i":index}`). */
export interface SidechainWorkloadEvent {
  what: 'sidechainTx' | 'sidechainTxFast' | 'balanceOverride';
  index: number;
}

export interface SidechainClientPort {
  readonly scheme: SignatureScheme;
  readonly users: readonly UserKey[];
  readonly sidechainNodes: readonly SidechainNode[];
  isAlive(id: string): boolean;
  /** Hand a message to a node directly, at this millisecond (a wallet's raw transaction, an operator's call). */
  deliverNow(to: string, msg: NodeMessage, from: 'client' | 'operator'): void;
  /** The wallets' own random stream. */
  rng(): Rng;
  at(atMs: number, ev: SidechainWorkloadEvent): void;
  after(ms: number, ev: SidechainWorkloadEvent): void;
}

export class SidechainWallets {
  constructor(
    private readonly w: WorkloadSpec,
    private readonly port: SidechainClientPort,
  ) {}

  schedule(): void {
    const { w, port } = this;
    if (w.sidechainTxs) port.at(w.sidechainTxs.everyMs, { what: 'sidechainTx', index: 0 });
    for (const [index, o] of (w.balanceOverrides ?? []).entries())
      for (let k = 0; k < (o.repeat ?? 1); k++)
        port.at(o.atMs + k * (o.everyMs ?? 0), { what: 'balanceOverride', index });
    const fastEveryMs = w.sidechainTxs?.fastSignedEveryMs;
    if (fastEveryMs !== undefined) port.at(fastEveryMs, { what: 'sidechainTxFast', index: 0 });
  }

  run(ev: SidechainWorkloadEvent): void {
    if (ev.what === 'balanceOverride') this.balanceOverride(ev.index);
    else this.transfer(ev.what);
  }

  /**
   * An operator's anvil_setBalance: every sidechain node gets the override the devnet sends it
   * (cli/devnet/liveNetwork.ts), and the next block each seals carries it. A node that is down
   * gets nothing, as a devnet cannot reach it either.
   */
  private balanceOverride(index: number): void {
    const o = this.w.balanceOverrides![index]!;
    const address = 'user' in o.target ? this.port.users[o.target.user - 1]!.address : o.target.address;
    for (const n of this.port.sidechainNodes)
      this.port.deliverNow(n.id, { kind: 'op.setBalance', address, balance: o.balanceWei }, 'operator');
  }

  /**
   * A wallet sends a transfer: it asks a node for the sender's pending nonce and the next block's
   * base fee, signs (legacy or EIP-1559, at the suggested tip) and sends the raw transaction to the
   * node, which checks it and gossips it like a devnet's eth_sendRawTransaction. A node that is
   * down cannot be asked: the wallet sends nothing that round. The draws come from the wallets'
   * own stream (`workload-sidechain`): sharing the main domain's `workload` stream would tie the
   * two domains' draws together.
   *
   * `sidechainTxFast` (workload.sidechainTxs.fastSignedEvery) signs in the fast scheme's format
   * whatever the network's scheme, with the sender's key registered with the fast scheme in this
   * process (signing registers it). A fast network takes it as any transfer; a real-crypto network
   * must not take it as the key's: secp256k1 recovery of those bytes gives no address or another,
   * unfunded one, and the node refuses it.
   */
  private transfer(what: 'sidechainTx' | 'sidechainTxFast'): void {
    const port = this.port;
    const scheme: SignatureScheme = what === 'sidechainTxFast' ? fastScheme : port.scheme;
    const rng = port.rng();
    const users = port.users;
    const node = rng.pick(port.sidechainNodes);
    const from = rng.pick(users);
    const to = rng.pick(users).address;
    const type = rng.bool() ? 2 : 0;
    if (port.isAlive(node.id)) {
      const baseFee = nextBaseFee(node.chain.head().block.header);
      const tx = signTransfer(
        {
          type,
          chainId: node.chain.cfg.chainId,
          nonce: node.txs.pendingNonce(from.address),
          to,
          value: 1n,
          gasLimit: TRANSFER_GAS,
          maxFeePerGas: 2n * baseFee + SUGGESTED_TIP,
          maxPriorityFeePerGas: SUGGESTED_TIP,
        },
        from.key,
        scheme,
      );
      port.deliverNow(node.id, { kind: 'sc.submit', raw: tx.raw as Hex }, 'client');
    }
    const s = this.w.sidechainTxs!;
    port.after(what === 'sidechainTxFast' ? s.fastSignedEveryMs! : s.everyMs, { what, index: 0 });
  }
}
