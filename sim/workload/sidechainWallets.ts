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
import { accountOf } from '../../src/sidechain/accounts';
import { MIN_BASE_FEE, SUGGESTED_TIP, nextBaseFee } from '../../src/sidechain/baseFee';
import { TRANSFER_GAS, type TransferFields, type TxType, signTransfer } from '../../src/sidechain/transaction';
import { type Address } from '../../src/core/address';
import { type UserKey } from '../core/runKeys';
import { type Rng } from '../env/rng';
import { type WorkloadSpec } from '../scenario/scenario';

/** A sidechain workload event (the encoding the trace holds: `{"w":what,"i":index}`). */
export interface SidechainWorkloadEvent {
  what: 'sidechainTx' | 'sidechainTxFast' | 'sidechainTxProbe' | 'balanceOverride';
  index: number;
}

/**
 * What a pool probe sends (workload.sidechainTxs.probeEvery), each a transaction geth's pool must
 * refuse or one an everyday wallet never sends:
 * - `resend`: a transfer, then its bytes again at once (already known);
 * - `replace`: a transfer, then at once three more of the same nonce, each with the first one's fee
 *   cap and tip 0%, 5%, 9%, 10% or 25% higher (each a replacement of what the pool holds then, or
 *   refused as underpriced), and at times the first one again;
 * - `gap`: a nonce one to three past the pending one (queued behind the gap);
 * - `staleNonce`: a nonce below the account's (nonce too low);
 * - `overspend`: the sender's whole balance as value (insufficient funds);
 * - `overdraft`: a value the balance covers alone but not with the sender's pooled transactions;
 * - `noTip`, `lowFeeCap`: a zero tip, or a fee cap under the lowest base fee (underpriced);
 * - `wrongChain`: another chain id; `lowGas`: 20,999 gas; `overGasLimit`: more gas than a block has;
 * - `roomyGas`: 30,000 gas for a transfer that uses 21,000 (admitted).
 */
export const POOL_PROBES = [
  'resend',
  'replace',
  'gap',
  'staleNonce',
  'overspend',
  'overdraft',
  'noTip',
  'lowFeeCap',
  'wrongChain',
  'lowGas',
  'overGasLimit',
  'roomyGas',
] as const;
export type PoolProbe = (typeof POOL_PROBES)[number];

/**
 * What a probe draws from: every kind once, and replacements twice more. A replacement's fate turns
 * on two fees and the pooled one's (five bumps each, and a legacy transaction's one price), so it
 * takes more draws than a check of one field to meet each of its cases.
 */
const PROBE_DRAWS: readonly PoolProbe[] = [...POOL_PROBES, 'replace', 'replace'];

/** What a replacement pays over the first transfer, on each fee (percent; geth asks at least 110). */
const BUMP_PERCENTS = [100n, 105n, 109n, 110n, 125n] as const;
/** How many replacements a `replace` probe tries after its first transfer. */
const REPLACEMENTS = 3;

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
    const probeEveryMs = w.sidechainTxs?.probeEveryMs;
    if (probeEveryMs !== undefined) port.at(probeEveryMs, { what: 'sidechainTxProbe', index: 0 });
  }

  run(ev: SidechainWorkloadEvent): void {
    if (ev.what === 'balanceOverride') this.balanceOverride(ev.index);
    else if (ev.what === 'sidechainTxProbe') this.probe();
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
    if (port.isAlive(node.id)) this.send(node.id, from.key, scheme, walletTransfer(node, from.address, to, type));
    const s = this.w.sidechainTxs!;
    port.after(what === 'sidechainTxFast' ? s.fastSignedEveryMs! : s.everyMs, { what, index: 0 });
  }

  /** Sign and send a transfer to `node`; its raw bytes. */
  private send(node: string, key: Hex, scheme: SignatureScheme, fields: TransferFields): Hex {
    const tx = signTransfer(fields, key, scheme);
    this.port.deliverNow(node, { kind: 'sc.submit', raw: tx.raw }, 'client');
    return tx.raw;
  }

  /**
   * A pool probe (POOL_PROBES): a random live node gets a transfer built to test one admission
   * check, in the network's scheme, from a random user. What the node answers is judged by the
   * sidechain-pool oracle.
   */
  private probe(): void {
    const port = this.port;
    const rng = port.rng();
    const kind = rng.pick(PROBE_DRAWS);
    const node = rng.pick(port.sidechainNodes);
    const from = rng.pick(port.users);
    const to = rng.pick(port.users).address;
    port.after(this.w.sidechainTxs!.probeEveryMs!, { what: 'sidechainTxProbe', index: 0 });
    const type = rng.bool(0.75) ? 2 : 0;
    const bumps = Array.from({ length: REPLACEMENTS }, () => ({
      cap: rng.pick(BUMP_PERCENTS),
      tip: rng.pick(BUMP_PERCENTS),
    }));
    const again = rng.bool();
    const gap = BigInt(rng.int(1, 3));
    // Every draw is made before the node is asked anything, so a probe draws the same whatever it finds.
    if (!port.isAlive(node.id)) return;
    const head = node.chain.head();
    const account = accountOf(head.accounts, from.address);
    const f = walletTransfer(node, from.address, to, kind === 'resend' || kind === 'replace' ? type : 2);
    // Room above the tip (a fee cap of two tips), so that a replacement can raise one fee more than the other.
    f.maxFeePerGas += SUGGESTED_TIP;
    const gasCost = f.gasLimit * f.maxFeePerGas;
    switch (kind) {
      case 'resend': {
        const raw = this.send(node.id, from.key, port.scheme, f);
        port.deliverNow(node.id, { kind: 'sc.submit', raw }, 'client');
        return;
      }
      case 'replace': {
        const first = this.send(node.id, from.key, port.scheme, f);
        for (const b of bumps) {
          const cap = (f.maxFeePerGas * b.cap) / 100n;
          // A wallet cannot sign a tip above its fee cap (ethers refuses; a node would too, before its pool).
          const tip = (f.maxPriorityFeePerGas! * b.tip) / 100n;
          this.send(node.id, from.key, port.scheme, {
            ...f,
            maxFeePerGas: cap,
            maxPriorityFeePerGas: f.type === 2 ? (tip < cap ? tip : cap) : cap,
          });
        }
        if (again) port.deliverNow(node.id, { kind: 'sc.submit', raw: first }, 'client');
        return;
      }
      case 'gap':
        f.nonce += gap;
        break;
      case 'staleNonce':
        if (account.nonce === 0n) return;
        f.nonce = account.nonce - 1n;
        break;
      case 'overspend':
        f.value = account.balance;
        break;
      case 'overdraft':
        // Payable alone only when the sender has transactions pooled (its pending nonce is past its account's).
        if (f.nonce === account.nonce || account.balance <= gasCost) return;
        f.value = account.balance - gasCost;
        break;
      case 'noTip':
        f.maxPriorityFeePerGas = 0n;
        break;
      case 'lowFeeCap':
        f.maxFeePerGas = MIN_BASE_FEE - 1n;
        f.maxPriorityFeePerGas = 1n;
        break;
      case 'wrongChain':
        f.chainId += 1n;
        break;
      case 'lowGas':
        f.gasLimit = TRANSFER_GAS - 1n;
        break;
      case 'overGasLimit':
        f.gasLimit = head.block.header.gasLimit + 1n;
        break;
      case 'roomyGas':
        f.gasLimit = 30_000n;
        break;
    }
    this.send(node.id, from.key, port.scheme, f);
  }
}

/**
 * What a wallet signs, as ethers' Wallet fills it from the node it asks: the sender's pending nonce,
 * 1 wei to `to`, 21,000 gas, the suggested tip and a fee cap of twice the next base fee plus it.
 */
function walletTransfer(node: SidechainNode, from: Address, to: Address, type: TxType): TransferFields {
  return {
    type,
    chainId: node.chain.cfg.chainId,
    nonce: node.txs.pendingNonce(from),
    to,
    value: 1n,
    gasLimit: TRANSFER_GAS,
    maxFeePerGas: 2n * nextBaseFee(node.chain.head().block.header) + SUGGESTED_TIP,
    maxPriorityFeePerGas: SUGGESTED_TIP,
  };
}
