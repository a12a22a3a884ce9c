/**
 * The ante handler as the model reads it (spec "Authentication" 1-4, "Limits"; heimdall.md §6.2;
 * README item 24 for the codes): a signature must be present; the message's own checks; the memo
 * at most MaxMemoCharacters characters; the sender's account must exist; the fixed fee is taken
 * (into the fee collector) before the signature is checked; the gas wanted is the per-transaction
 * limit (the checkpoint gas for a checkpoint) and must cover the size at TxSizeCostPerByte and one
 * secp256k1 signature check; the signature must recover to the sender over the sign bytes of this
 * chain id and the account's number and sequence; then the sequence rises by one and the account
 * keeps the signer's public key. Everything runs on the transaction's branch of the state.
 */
import { by, H, type Outcome, SDK } from './outcome';
import { type CryptoMode, type KeyLookup, recoverSigner, signDigest } from './signature';
import { type ModelParams, type ModelState } from './state';
import { type ModelMsg, type ModelTx, signerOf } from './txDecode';

export const FEE_DENOM = 'matic';
/** The spec's checkpoint transaction gas (Limits), also the whole block's gas. */
export const CHECKPOINT_TX_GAS = 10_000_000n;
const ZERO_HASH = `0x${'00'.repeat(32)}`;
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;

export interface AnteContext {
  params: ModelParams;
  mode: CryptoMode;
  keys: KeyLookup;
  /** The module account fees are collected into during a block. */
  feeCollector: string;
}

export const isCheckpoint = (m: ModelMsg) => m.type === 'checkpoint/MsgCheckpoint';

/** The message's stateless checks (Cosmos ValidateBasic), as the reference and the spec state them. */
export function validateBasic(m: ModelMsg): Outcome | null {
  switch (m.type) {
    case 'cosmos-sdk/MsgSend':
      return m.amount.length === 0 ? by('bank.send.amount-valid', SDK.invalidCoins('a send of no coins')) : null;
    case 'cosmos-sdk/MsgMultiSend': {
      if (m.inputs.length === 0) return by('bank.multisend.nonempty', H.bankInputsOutputs('no inputs'));
      if (m.outputs.length === 0) return by('bank.multisend.nonempty', H.bankInputsOutputs('no outputs'));
      const signer = m.inputs[0]!.address;
      // One signature per transaction: every input must be its signer.
      if (m.inputs.some((i) => i.address !== signer))
        return by('bank.multisend.signer-is-input', SDK.unauthorized('inputs from more than one signer'));
      const sum = (ios: typeof m.inputs) => {
        const t = new Map<string, bigint>();
        for (const io of ios) for (const c of io.coins) t.set(c.denom, (t.get(c.denom) ?? 0n) + c.amount);
        return t;
      };
      const a = sum(m.inputs);
      const b = sum(m.outputs);
      if (a.size !== b.size || [...a].some(([d, v]) => b.get(d) !== v))
        return by('bank.multisend.balanced', H.bankInputsOutputs('inputs and outputs differ'));
      return null;
    }
    case 'checkpoint/MsgCheckpoint':
      if (m.rootHash === ZERO_HASH) return by('checkpoint.propose.validate-basic', H.invalidMsg('zero root hash'));
      if (m.proposer === ZERO_ADDRESS) return by('checkpoint.propose.validate-basic', H.invalidMsg('zero proposer'));
      if (!(m.startBlock < m.endBlock))
        return by('checkpoint.propose.validate-basic', H.invalidMsg('a checkpoint covers at least two blocks'));
      return null;
    case 'clerk/MsgEventRecord':
      return (m.data.length - 2) / 2 > 100_000
        ? by('clerk.record.max-size', H.dataTooBig('state-sync data over the legacy maximum'))
        : null;
    default:
      return null;
  }
}

/** Run the ante handler on `s` (a transaction branch); the gas the block counts for it, or a refusal. */
export function ante(
  s: ModelState,
  tx: ModelTx,
  x: AnteContext,
): { ok: true; gas: bigint } | { ok: false; why: Outcome } {
  const p = x.params;
  const no = (why: Outcome) => ({ ok: false as const, why });
  if (tx.signature.length === 0) return no(by('auth.ante.signature-required', SDK.noSignatures('no signature')));
  if (p.txSigLimit < 1n) return no(by('auth.ante.check-order', SDK.tooManySignatures('one signature over the limit')));
  const basic = validateBasic(tx.msg);
  if (basic) return no(basic);
  const memoChars = [...tx.memo].length;
  if (BigInt(memoChars) > p.maxMemoCharacters)
    return no(by('auth.ante.memo-limit', SDK.memoTooLarge(`memo of ${memoChars} characters`)));
  const signer = signerOf(tx.msg);
  const account = s.account(signer);
  if (!account) return no(by('auth.ante.unknown-account', SDK.unknownAddress(`no account ${signer}`)));
  if (s.balance(signer, FEE_DENOM) < p.txFees)
    return no(by('auth.ante.fee-balance', SDK.insufficientFunds('balance below the fee')));
  s.send(signer, x.feeCollector, [{ denom: FEE_DENOM, amount: p.txFees }]);
  const checkpoint = isCheckpoint(tx.msg);
  const gasWanted = checkpoint ? CHECKPOINT_TX_GAS : p.maxTxGas;
  const sizeGas = BigInt(tx.sizeBytes) * p.txSizeCostPerByte;
  if (sizeGas > gasWanted) return no(by('auth.gas.tx-limit', SDK.outOfGas(`size gas ${sizeGas} over ${gasWanted}`)));
  const used = sizeGas + p.sigVerifyCostSecp256k1;
  if (used > gasWanted)
    return no(by('auth.gas.tx-limit', SDK.outOfGas(`size and signature gas ${used} over ${gasWanted}`)));
  const digest = signDigest(tx, {
    chainId: p.chainId,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  const who = recoverSigner(x.mode, x.keys, digest, tx.signature);
  if (who?.address !== signer)
    return no(
      by(
        'auth.ante.signature-recovers-signer',
        SDK.unauthorized(
          `signature is not ${signer}'s over chain ${p.chainId}, account ${account.accountNumber}, sequence ${account.sequence}`,
        ),
      ),
    );
  const after = s.account(signer)!;
  s.accounts.set(signer, { ...after, sequence: after.sequence + 1n, pubKey: after.pubKey ?? who.publicKey });
  return { ok: true, gas: checkpoint ? CHECKPOINT_TX_GAS : used };
}
