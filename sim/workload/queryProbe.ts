/**
 * A client that reads the service's REST API, as a wallet or an explorer would: every half
 * minute of virtual time it asks one live service node (in turn) every GET of the spec's table
 * (and the reference's reads beside them), with arguments taken from what it saw (the latest span
 * and checkpoint count it was told, the validators' and users' addresses it knows), and a few
 * arguments that must be refused. Each answer is recorded as a raw fact (`service.query`); the
 * query-answers oracle holds it against the reference model's state at the node's height.
 *
 * It draws nothing at random: which node and which arguments follow from the round number.
 */
import { type Observation } from '../../src/node/observations';
import { type ServiceNode } from '../../src/node/service/serviceNode';

export const PROBE_EVERY_MS = 30_000;

type Answer = Extract<Observation, { kind: 'service.query' }>['answer'];

function numberIn(answer: Answer, key: string): number | null {
  if (!answer.ok || typeof answer.result !== 'object' || answer.result === null) return null;
  const v = (answer.result as Record<string, unknown>)[key];
  return typeof v === 'number' ? v : null;
}

/** One round of reads on `node`: the records to report. */
export function probe(
  node: ServiceNode,
  round: number,
  addresses: readonly string[],
  validators: number,
): Observation[] {
  const out: Observation[] = [];
  const ask = (path: string): Answer => {
    const { outcome } = node.app.query(path);
    const answer: Answer = outcome.ok
      ? { ok: true, result: outcome.result }
      : { ok: false, kind: outcome.kind, message: outcome.message };
    out.push({ kind: 'service.query', height: node.app.height, path, answer });
    return answer;
  };
  const address = addresses[round % addresses.length]!;
  const id = (round % Math.max(1, validators)) + 1;
  const latest = numberIn(ask('/sidechain/latest-span'), 'span_id');
  if (latest !== null) {
    ask(`/sidechain/span/${latest}`);
    ask(`/sidechain/span/${latest + 1}`);
  }
  ask('/sidechain/span/list?page=1&limit=3');
  ask('/sidechain/params');
  ask('/sidechain/next-span-seed-block');
  ask(`/auth/accounts/${address}`);
  ask(`/auth/accounts/${address}/sequence`);
  // An address no account was ever made for: an empty account, not an error.
  ask(`/auth/accounts/0x${(round + 1).toString(16).padStart(40, 'e')}`);
  ask('/auth/params');
  ask('/staking/validator-set');
  ask(`/staking/validator/${id}`);
  ask(`/staking/signer/${address}`);
  ask('/staking/current-proposer');
  ask('/staking/proposer/3');
  ask('/staking/totalpower');
  const count = numberIn(ask('/checkpoints/count'), 'result');
  if (count !== null) {
    ask(`/checkpoints/${count}`);
    ask(`/checkpoints/${count + 1}`);
  }
  ask('/checkpoints/buffer');
  ask('/checkpoints/latest');
  ask('/checkpoints/last-no-ack');
  ask('/checkpoints/list?page=1&limit=5');
  ask('/checkpoints/parama');
  ask('/overview');
  ask('/topup/dividend-account-root');
  ask(`/topup/dividend-account/${id}`);
  const record = ask(`/clerk/event-record/${(round % 8) + 1}`);
  // Whether each module processed an event: the record's own (true), one nobody emitted (false),
  // and a read without its log index (refused).
  if (record.ok && typeof record.result === 'object' && record.result !== null) {
    const r = record.result as { tx_hash?: unknown; log_index?: unknown };
    if (typeof r.tx_hash === 'string' && typeof r.log_index === 'number')
      ask(`/clerk/isoldtx?txhash=${r.tx_hash}&logindex=${r.log_index}`);
  }
  const unseen = `0x${(round + 1).toString(16).padStart(64, 'c')}`;
  ask(`/${['staking', 'topup', 'clerk'][round % 3]}/isoldtx?txhash=${unseen}&logindex=${round % 4}`);
  ask(`/${['topup', 'clerk', 'staking'][round % 3]}/isoldtx?txhash=${unseen}`);
  // As the sidechain fetches records (from an id, up to a time), and the other two ways of paging.
  const nowS = Math.floor(node.app.lastBlockTimeMs / 1000);
  ask(
    `/clerk/event-record/list?from-id=${(round % 12) + 1}&to-time=${nowS - (round % 3) * 60}&limit=${(round % 3) * 4 + 3}`,
  );
  ask(`/clerk/event-record/list?from-time=${nowS - 600}&to-time=${nowS}&page=${(round % 2) + 1}&limit=4`);
  ask(`/clerk/event-record/list?page=${(round % 3) + 1}&limit=${round % 2 === 0 ? 5 : 60}`);
  // The optional arguments left out, in turn: the limit (50 by default), then the page too.
  ask(
    round % 2 === 0
      ? `/clerk/event-record/list?from-id=${(round % 12) + 1}&to-time=${nowS}`
      : `/clerk/event-record/list?page=${(round % 3) + 1}`,
  );
  if (round % 4 === 1) ask('/clerk/event-record/list');
  ask('/chain/params');
  // Arguments a careful server refuses, by name.
  ask(round % 2 === 0 ? '/staking/validator/x1' : '/sidechain/span/-1');
  ask(round % 2 === 0 ? '/auth/accounts/0x1234' : '/checkpoints/list?page=1');
  ask(round % 2 === 0 ? '/clerk/event-record/list?from-id=x&to-time=1' : '/clerk/event-record/list?page=1&limit=-5');
  // The zero address is no account's (refused, not an empty account); a validator id nobody has.
  ask(`/auth/accounts/0x${'00'.repeat(20)}`);
  ask(`/topup/dividend-account/${validators + 1000}`);
  return out;
}
