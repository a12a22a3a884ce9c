/**
 * The ante handler, in the reference's order (heimdall.md §6.2): signature present, memo length,
 * signer account exists, fixed fee deducted, gas for size and signature within the limit, signature
 * recovers to the signer (a wrong chain id or sequence fails here), then sequence + 1.
 * It runs on the transaction's branch: a rejection anywhere leaves the state untouched.
 */
import { SdkErrors } from '../framework/errors';
import { type Address } from '../../core/address';
import { type ResultError, err } from '../../core/errors';
import { fromHex, toHex } from '../../core/bytes';
import { type SignatureScheme, realScheme } from '../../core/signatureScheme';
import { type KVStore } from '../../store/kvStore';
import { getAccount, setAccount } from './keeper';
import { getAuthParams } from './keeper';
import { FEE_DENOM, CHECKPOINT_TX_GAS } from './params';
import { decodedSignDigestOf, type StdTx } from './stdTx';
import { txGas, txSizeGas } from './gas';
import { sendCoins } from '../bank/keeper';
import { FEE_COLLECTOR } from './keeper';

export interface AnteOutcome {
  signer: Address;
  /** Gas this tx counts against the block: size + signature, or the fixed checkpoint gas. */
  gasUsed: bigint;
  gasWanted: bigint;
  fee: bigint;
}

export type AnteResult = { ok: true; value: AnteOutcome } | { ok: false; error: ResultError; gasUsed: bigint };

export function isCheckpointTx(tx: StdTx): boolean {
  return tx.def.route === 'checkpoint' && tx.def.msgType === 'checkpoint';
}

export function anteHandler(
  store: KVStore,
  tx: StdTx,
  txBytesLength: number,
  chainId: string,
  scheme: SignatureScheme = realScheme,
): AnteResult {
  const params = getAuthParams(store);
  const fail = (error: ResultError, gasUsed = 0n): AnteResult => ({ ok: false, error, gasUsed });

  // ValidateBasic: exactly one signer, a signature, and the message's own checks.
  if (tx.signature.length <= 2) return fail(err(SdkErrors.NoSignatures, 'No signers'));
  if (1n > params.txSigLimit)
    return fail(err(SdkErrors.TooManySignatures, `signatures: 1, limit: ${params.txSigLimit}`));
  const basic = tx.def.validateBasic?.(tx.msg) ?? null;
  if (basic) return fail(basic);

  const memoChars = [...tx.memo].length;
  if (BigInt(memoChars) > params.maxMemoCharacters) {
    return fail(
      err(
        SdkErrors.MemoTooLarge,
        `maximum number of characters is ${params.maxMemoCharacters} but received ${memoChars} characters`,
      ),
    );
  }

  const signer = tx.def.signer(tx.msg);
  const account = getAccount(store, signer);
  if (account === undefined) return fail(err(SdkErrors.UnknownAddress, `account ${signer} does not exist`));

  // The fixed fee is deducted before the signature check, as in the reference; the branch is
  // discarded if anything later fails, so a rejected tx pays nothing.
  const fee = params.txFees;
  const balance = account.coins[FEE_DENOM] ?? 0n;
  if (balance < fee)
    return fail(
      err(
        SdkErrors.InsufficientFunds,
        `insufficient funds to pay for fees; ${balance}${FEE_DENOM} < ${fee}${FEE_DENOM}`,
      ),
    );
  const feeErr = sendCoins(store, signer, FEE_COLLECTOR, [{ denom: FEE_DENOM, amount: fee }]);
  if (feeErr) return fail(feeErr);

  const checkpoint = isCheckpointTx(tx);
  const gasWanted = checkpoint ? CHECKPOINT_TX_GAS : params.maxTxGas;
  const sizeGas = txSizeGas(params, txBytesLength);
  if (sizeGas > gasWanted) return fail(outOfGas('txSize', gasWanted, sizeGas), sizeGas);
  // Size and signature: what the block counts for it (txGas), but a checkpoint's fixed gas.
  const gasUsed = txGas(params, txBytesLength, false);
  if (gasUsed > gasWanted) return fail(outOfGas('ante verify: secp256k1', gasWanted, gasUsed), gasUsed);

  // The tx is a decoded one, shared read-only (src/app/decodedTx.ts): its digest may be kept on it.
  const digest = decodedSignDigestOf(tx.def, tx.msg, {
    chainId,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
    memo: tx.memo,
  });
  const recovered = scheme.recover(digest, fromHex(tx.signature, 'signature'));
  if (recovered?.address !== signer) {
    return fail(
      err(SdkErrors.Unauthorized, 'signature verification failed; verify correct account sequence and chain-id'),
      gasUsed,
    );
  }

  const after = getAccount(store, signer)!;
  // The first successful tx records the account's public key (recovered once, then kept).
  const pubKey = after.pubKey ?? toHex(recovered.publicKey);
  setAccount(store, { ...after, pubKey, sequence: after.sequence + 1n });
  // A checkpoint tx occupies the whole block's gas (spec: checkpoint transaction gas 10,000,000).
  return { ok: true, value: { signer, gasUsed: txGas(params, txBytesLength, checkpoint), gasWanted, fee } };
}

function outOfGas(location: string, wanted: bigint, used: bigint): ResultError {
  return err(SdkErrors.OutOfGas, `out of gas in location: ${location}; gasWanted: ${wanted}, gasUsed: ${used}`);
}
