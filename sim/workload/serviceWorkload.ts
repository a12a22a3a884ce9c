/**
 * The client workload of the main domain, as a scenario's `workload` section describes it: signed
 * service transactions (transfers, multi-sends, fee withdrawals) and the parent-chain calls the
 * bridges turn into service messages (top-ups, state syncs, restakes, joins, exits, signer
 * changes). It acts through its client port only (clientPort.ts), on events the domain hands it.
 */
import { ONE_TOKEN } from '../../src/core/amount';
import { type Address } from '../../src/core/address';
import { type Hex, toHex } from '../../src/core/bytes';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../src/core/secp256k1';
import { encodeTx, signTx } from '../../src/modules/auth/stdTx';
import { MsgMultiSendDef, MsgSendDef } from '../../src/modules/bank/msgs';
import { type MsgDef } from '../../src/modules/framework/msgDef';
import { MsgWithdrawFeeDef } from '../../src/modules/topup/msgs';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type ParentCall } from '../../src/parent/parentChain';
import { type Repeats, type WorkloadSpec } from '../scenario/scenario';
import { type ServiceClientPort, type WorkloadEvent } from './clientPort';

/** The address the workload's state syncs go to (a contract on the sidechain). */
const STATE_SYNC_RECEIVER = '0x0000000000000000000000000000000000001001';

export class ServiceWorkload {
  /** Signer changes each validator's workload has sent (the next takes its next rotation key). */
  private readonly rotationsUsed = new Map<number, number>();

  constructor(
    private readonly w: WorkloadSpec,
    private readonly port: ServiceClientPort,
  ) {}

  /** The first event of every item (the periodic ones at their first period). */
  schedule(): void {
    const w = this.w;
    const at = (atMs: number, what: WorkloadEvent['what'], index: number) => this.port.at(atMs, { what, index });
    if (w.transfers) at(w.transfers.everyMs, 'transfer', 0);
    for (const [i, t] of w.topups.entries()) at(t.atMs, 'topup', i);
    for (const [i, t] of w.stateSyncs.entries()) at(t.atMs, 'stateSync', i);
    for (const [i, t] of w.stakeUpdates.entries()) at(t.atMs, 'stakeUpdate', i);
    for (const [i, t] of w.joins.entries()) at(t.atMs, 'join', i);
    for (const [i, t] of w.exits.entries()) at(t.atMs, 'exit', i);
    for (const [i, t] of w.signerChanges.entries()) at(t.atMs, 'signerChange', i);
    if (w.multiSends) at(w.multiSends.everyMs, 'multiSend', 0);
    for (const [i, t] of (w.withdrawals ?? []).entries()) at(t.atMs, 'withdrawal', i);
  }

  /**
   * One workload event. A scheduled item acts `repeat` times: all at once when `every` is 0 (a
   * top-up's repeats are one record), else once per event, `every` apart.
   */
  run(ev: WorkloadEvent): void {
    const { what, index } = ev;
    const round = ev.round ?? 0;
    const item = this.itemOf(what, index);
    if (item === null) {
      this.act(what, index);
      return;
    }
    const repeat = item.repeat ?? 1;
    const everyMs = item.everyMs ?? 0;
    if (everyMs === 0) {
      if (what === 'topup') this.act(what, index, repeat);
      else for (let r = 0; r < repeat; r++) this.act(what, index);
      return;
    }
    this.act(what, index);
    if (round + 1 < repeat) this.port.after(everyMs, { what, index, round: round + 1 });
  }

  /** The scheduled item a workload event acts for (the periodic ones have none). */
  private itemOf(what: WorkloadEvent['what'], index: number): (Repeats & { atMs: number }) | null {
    const w = this.w;
    switch (what) {
      case 'topup':
        return w.topups[index]!;
      case 'stateSync':
        return w.stateSyncs[index]!;
      case 'stakeUpdate':
        return w.stakeUpdates[index]!;
      case 'join':
        return w.joins[index]!;
      case 'exit':
        return w.exits[index]!;
      case 'signerChange':
        return w.signerChanges[index]!;
      case 'withdrawal':
        return w.withdrawals![index]!;
      default:
        return null;
    }
  }

  /** A signed client transaction to a service node (as `lockstep tx` sends one). */
  private sendClientTx<M>(target: ServiceNode, def: MsgDef<M>, msg: M, from: { key: Hex; address: Address }): void {
    const acc = target.app.signingAccount(from.address);
    if (!acc) return;
    const tx = encodeTx(
      signTx(def, msg, { chainId: target.app.chainId, ...acc, memo: '' }, from.key, this.port.scheme),
    );
    this.port.sendTx(target.id, toHex(tx));
  }

  private act(what: WorkloadEvent['what'], index: number, times = 1): void {
    const rng = this.port.rng();
    const { port, w } = this;
    const callParent = (call: ParentCall) => port.callParent(call);
    switch (what) {
      case 'transfer': {
        const from = rng.pick(port.users);
        const to = rng.pick(port.users.filter((u) => u !== from));
        const target = rng.pick(port.serviceNodes);
        this.sendClientTx(
          target,
          MsgSendDef,
          {
            fromAddress: from.address,
            toAddress: to.address,
            amount: [{ denom: 'matic', amount: w.transfers!.amountWei }],
          },
          from,
        );
        port.after(w.transfers!.everyMs, { what, index });
        return;
      }
      case 'multiSend': {
        const m = w.multiSends!;
        const from = rng.pick(port.users);
        const others = port.users.filter((u) => u !== from);
        const outputs = Array.from({ length: m.outputs }, () => ({
          address: rng.pick(others).address,
          coins: [{ denom: 'matic', amount: m.amountWei }],
        }));
        const target = rng.pick(port.serviceNodes);
        this.sendClientTx(
          target,
          MsgMultiSendDef,
          {
            inputs: [{ address: from.address, coins: [{ denom: 'matic', amount: m.amountWei * BigInt(m.outputs) }] }],
            outputs,
          },
          from,
        );
        port.after(m.everyMs, { what, index });
        return;
      }
      case 'withdrawal': {
        const t = w.withdrawals![index]!;
        const node = port.serviceNodes[t.validator - 1]!;
        // Signed with the key the validator's node holds now (it follows its signer changes).
        const from = { key: node.identity.privateKey, address: node.address };
        this.sendClientTx(
          port.nodeOf(t.validator),
          MsgWithdrawFeeDef,
          {
            fromAddress: from.address,
            amount: t.amountTokens * ONE_TOKEN,
          },
          from,
        );
        port.record({ kind: 'workload.withdrawal', validator: t.validator });
        return;
      }
      case 'topup': {
        const t = w.topups[index]!;
        const k = port.keys[t.validator - 1]!;
        // To the signer the validator has now (its node follows its signer changes).
        const user = port.serviceNodes[t.validator - 1]!.address;
        for (let r = 0; r < times; r++)
          callParent({ method: 'topUpForFee', from: k.owner, user, fee: t.amountTokens * ONE_TOKEN });
        port.record({ kind: 'workload.topup', validator: t.validator, repeat: times });
        return;
      }
      case 'stateSync': {
        const t = w.stateSyncs[index]!;
        for (let c = 0; c < t.count; c++)
          callParent({
            method: 'syncState',
            from: port.keys[0]!.owner,
            receiver: STATE_SYNC_RECEIVER,
            data: toHex(rng.bytes(32)),
          });
        port.record({ kind: 'workload.stateSync', count: t.count });
        return;
      }
      case 'stakeUpdate': {
        const t = w.stakeUpdates[index]!;
        const k = port.keys[t.validator - 1]!;
        callParent({
          method: 'restake',
          from: k.owner,
          validatorId: BigInt(t.validator),
          amount: t.amountTokens * ONE_TOKEN,
        });
        port.record({ kind: 'workload.stakeUpdate', validator: t.validator });
        return;
      }
      case 'join': {
        const t = w.joins[index]!;
        const key = toHex(rng.bytes(32));
        const owner = addressOfPublicKey(publicKeyBytesFromPrivateKey(toHex(rng.bytes(32))));
        callParent({
          method: 'stake',
          from: owner,
          signerPubkey: toHex(publicKeyBytesFromPrivateKey(key)),
          amount: t.stakeTokens * ONE_TOKEN,
        });
        port.record({ kind: 'workload.join', stake: t.stakeTokens });
        return;
      }
      case 'exit': {
        const t = w.exits[index]!;
        const k = port.keys[t.validator - 1]!;
        callParent({ method: 'unstake', from: k.owner, validatorId: BigInt(t.validator) });
        port.record({ kind: 'workload.exit', validator: t.validator });
        return;
      }
      case 'signerChange': {
        const t = w.signerChanges[index]!;
        const k = port.keys[t.validator - 1]!;
        // The validator's next rotation key (runSetup derives one per scheduled change).
        const used = this.rotationsUsed.get(t.validator) ?? 0;
        const next = port.rotationKeys[t.validator - 1]![used];
        if (next === undefined) return;
        this.rotationsUsed.set(t.validator, used + 1);
        callParent({
          method: 'updateSigner',
          from: k.owner,
          validatorId: BigInt(t.validator),
          signerPubkey: next.pubKey,
        });
        port.record({ kind: 'workload.signerChange', validator: t.validator });
        return;
      }
    }
  }
}
