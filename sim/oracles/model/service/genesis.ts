/**
 * The genesis state as the model computes it from the genesis document (the run's input), so that
 * what each node made of the same document is judged too: the parameters with the spec's and the
 * reference's defaults where the document is silent, the funded accounts numbered in document
 * order, the validators (current from epoch 1 when they start by then) and the stored set made
 * as the reference makes it (every validator entering through the change-set path, one increment,
 * then one more at genesis: heimdall.md §4.3-§4.4), span 0 (blocks 0 to first span duration - 1,
 * the first producerCount validators of the set by signer address with their full power, README
 * item 4 of the spec's "first span"), no checkpoint yet.
 *
 * It reads a document the run already accepted, so it does not re-validate it: it takes each
 * field as given or its default.
 */
import { PrioritySet } from '../proposerPriority';
import { addressOfPublicKey } from './signature';
import { type ModelParams, ModelState, type SpanMember, idKey } from './state';

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const big = (v: unknown, fallback: bigint): bigint =>
  v === undefined || v === null ? fallback : typeof v === 'bigint' ? v : BigInt(v as string | number);

function hexBytes(h: string): Uint8Array {
  const b = new Uint8Array((h.length - 2) / 2);
  for (let i = 0; i < b.length; i++) b[i] = Number.parseInt(h.slice(2 + 2 * i, 4 + 2 * i), 16);
  return b;
}

/** The parameters and the genesis state of a genesis document. */
export function genesisOf(document: unknown): { params: ModelParams; state: ModelState } {
  const root = obj(document);
  const app = obj(root.app_state);
  const auth = obj(obj(app.auth).params);
  const chain = obj(app.chain);
  const span = obj(app.sidechain);
  const spanParams = obj(span.params);
  const checkpoint = obj(obj(app.checkpoint).params);
  const bank = obj(app.bank);
  // Defaults: the spec's Module parameters and Limits tables; the reference's where the spec has none.
  const params: ModelParams = {
    chainId: String(root.chain_id),
    txFees: big(auth.tx_fees, 1_000_000_000_000_000n),
    maxMemoCharacters: big(auth.max_memo_characters, 256n),
    txSigLimit: big(auth.tx_sig_limit, 7n),
    txSizeCostPerByte: big(auth.tx_size_cost_per_byte, 10n),
    sigVerifyCostSecp256k1: big(auth.sig_verify_cost_secp256k1, 1000n),
    sigVerifyCostEd25519: big(auth.sig_verify_cost_ed25519, 590n),
    maxTxGas: big(auth.max_tx_gas, 1_000_000n),
    checkpointBufferTimeMs: big(checkpoint.checkpoint_buffer_time_ms, 1_000_000n),
    avgCheckpointLength: big(checkpoint.avg_checkpoint_length, 256n),
    maxCheckpointLength: big(checkpoint.max_checkpoint_length, 1024n),
    childBlockInterval: big(checkpoint.child_chain_block_interval, 10_000n),
    sprint: big(spanParams.sprint_duration, 16n),
    spanDuration: big(spanParams.span_duration, 1600n),
    producerCount: big(spanParams.producer_count, 4n),
    parentConfirmations: big(chain.parent_chain_tx_confirmations, 6n),
    sidechainConfirmations: big(chain.sidechain_tx_confirmations, 10n),
    sidechainChainId: chain.sidechain_chain_id === undefined ? '15001' : String(chain.sidechain_chain_id),
    sendEnabled: bank.send_enabled === undefined ? true : bank.send_enabled === true,
  };

  const s = new ModelState();
  s.put('buffer', null);
  s.put('ackCount', 0n);
  s.put('lastNoAckS', 0n);
  s.put('seedBlock', 0n);
  let number = 0n;
  const accounts = Array.isArray(obj(app.auth).accounts) ? (obj(app.auth).accounts as unknown[]) : [];
  for (const raw of accounts) {
    const a = obj(raw);
    const address = String(a.address).toLowerCase();
    const coins = new Map<string, bigint>();
    for (const c of Array.isArray(a.coins) ? a.coins : []) {
      const denom = String(obj(c).denom);
      coins.set(denom, (coins.get(denom) ?? 0n) + big(obj(obj(c).amount).i, 0n));
    }
    for (const [d, v] of coins) if (v === 0n) coins.delete(d);
    s.accounts.set(address, { address, coins, sequence: 0n, accountNumber: number++, pubKey: null });
  }
  s.put('nextAccountNumber', number);

  const list = Array.isArray(obj(app.staking).validators) ? (obj(app.staking).validators as unknown[]) : [];
  const validators = list
    .map((raw) => {
      const v = obj(raw);
      const pubKey = String(v.pub_key).toLowerCase();
      return {
        id: big(v.id, 0n),
        signer: addressOfPublicKey(hexBytes(pubKey)),
        pubKey,
        power: big(v.power, 0n),
        startEpoch: big(v.start_epoch, 0n),
        endEpoch: 0n,
        lastUpdated: null,
        jailed: false,
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const v of validators) s.putValidator(v);
  // The set of those current at the first epoch: NewValidatorSet (one increment), then one more.
  const set = PrioritySet.create(
    validators.filter((v) => v.startEpoch <= 1n).map((v) => ({ address: v.signer, power: v.power })),
  );
  set.increment(1);
  s.put('validatorSet', set);

  const firstSpanDuration = big(span.first_span_duration, 256n);
  const bySigner = new Map(validators.map((v) => [v.signer, v]));
  const member = (signer: string): SpanMember => {
    const v = bySigner.get(signer)!;
    return { id: v.id, startEpoch: v.startEpoch, endEpoch: v.endEpoch, pubKey: v.pubKey, signer };
  };
  s.spans.set(idKey(0n), {
    id: 0n,
    startBlock: 0n,
    endBlock: firstSpanDuration - 1n,
    producers: set.validators
      .slice(0, Number(params.producerCount))
      .map((m) => ({ id: bySigner.get(m.address)!.id, signer: m.address, power: m.power })),
    sidechainChainId: params.sidechainChainId,
    validators: set.validators.map((m) => ({ address: m.address, power: m.power, priority: m.priority })),
    proposer: set.proposerSnapshot,
    members: set.validators.map((m) => member(m.address)),
  });
  s.put('lastSpanId', 0n);
  return { params, state: s };
}
