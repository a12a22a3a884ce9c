/**
 * What a run reached of the service's messages, read from its records: per message type of the
 * client table, how many transactions committed blocks delivered, how many were accepted, and the
 * codes the others were refused with; per Byzantine kind (sim/faults/crafts/), how many it
 * crafted, how many a block it proposed delivered, and how many got the reference's code.
 *
 * A committed height is counted once (the first node to report it): honest nodes commit the same
 * block. A transaction DeliverTx took is accepted once its side-tx result (two blocks later) is,
 * for the messages that have one; refused with `side <code>` otherwise; still `pending` when the
 * run ended before it.
 */
import { type Hex } from '../../src/core/bytes';
import { MSG_REGISTRY } from '../../src/app/registry';
import { type RunRecord } from '../core/record';
import { MESSAGE_NAMES, UNDECODABLE } from '../core/messageNames';

export interface MessageCounts {
  delivered: number;
  accepted: number;
  /** Refusals by code: `codespace/code` at DeliverTx, `side code` for a side-tx result. */
  refused: Record<string, number>;
  /** Taken by DeliverTx, side-tx result not yet in when the run ended. */
  pending: number;
}

export interface ByzantineCounts {
  /** Crafted into blocks it proposed. */
  crafted: number;
  /** Delivered by its committed block at the place it put them. */
  delivered: number;
  /** Of those with an expectation (judged), refused with the reference's code. */
  asExpected: number;
  /** Delivered without an expectation (valid on purpose, or not the sender's to predict). */
  unjudged: number;
  /** Delivered, taken by DeliverTx, side-tx result not yet in when the run ended. */
  pending: number;
  /** Gossiped to the mempools (not judged). */
  gossiped: number;
  /** The results its delivered txs got (`codespace/code`, `side code`, `accepted`). */
  results: Record<string, number>;
}

export interface MessageReach {
  messages: Record<string, MessageCounts>;
  byzantine: Record<string, ByzantineCounts>;
}

function emptyByzantine(): ByzantineCounts {
  return { crafted: 0, delivered: 0, asExpected: 0, unjudged: 0, pending: 0, gossiped: 0, results: {} };
}

export function emptyReach(): MessageReach {
  return { messages: {}, byzantine: {} };
}

function msgName(type: string | null): string {
  if (type === null) return UNDECODABLE;
  return MESSAGE_NAMES.get(type) ?? type;
}

/** The entry of `k`, made first when there is none. */
function entry<T>(m: Record<string, T>, k: string, make: () => T): T {
  const e = m[k] ?? make();
  m[k] = e;
  return e;
}

const emptyMessage = (): MessageCounts => ({ delivered: 0, accepted: 0, refused: {}, pending: 0 });

function bump(m: Record<string, number>, k: string, by = 1): void {
  m[k] = (m[k] ?? 0) + by;
}

export function messageReach(records: readonly RunRecord[]): MessageReach {
  const messages: Record<string, MessageCounts> = {};
  const counts = (name: string) => entry(messages, name, emptyMessage);
  /** Side txs DeliverTx took, awaiting their result: tx hash → message name (a hash may repeat). */
  const awaiting = new Map<Hex, string[]>();
  const seen = new Set<bigint>();
  /** Per committed height: each tx's hash and result (`accepted`, a code, or `side` while awaiting). */
  const blocks = new Map<bigint, Array<{ hash: Hex; code: number; codespace: string; side: boolean }>>();
  const sideResults = new Map<Hex, number>();
  for (const r of records) {
    const o = r.obs;
    if (o.kind !== 'service.commit' || seen.has(o.height)) continue;
    seen.add(o.height);
    for (const st of o.sideTxs) {
      if (!sideResults.has(st.txHash)) sideResults.set(st.txHash, st.code);
      const names = awaiting.get(st.txHash);
      const name = names?.shift();
      if (name === undefined) continue;
      if (names!.length === 0) awaiting.delete(st.txHash);
      const c = counts(name);
      c.pending--;
      if (st.code === 0) c.accepted++;
      else bump(c.refused, `side ${st.code}`);
    }
    const block: Array<{ hash: Hex; code: number; codespace: string; side: boolean }> = [];
    blocks.set(o.height, block);
    for (const t of o.txs) {
      const type = t.msg === null ? null : t.msg.type === 'other' ? t.msg.name : t.msg.type;
      const side = type !== null && MSG_REGISTRY.get(type)?.side !== undefined;
      block.push({ hash: t.hash, code: t.code, codespace: t.codespace, side });
      const name = msgName(type);
      const c = counts(name);
      c.delivered++;
      if (t.code !== 0) bump(c.refused, `${t.codespace}/${t.code}`);
      else if (side) {
        c.pending++;
        awaiting.set(t.hash, [...(awaiting.get(t.hash) ?? []), name]);
      } else c.accepted++;
    }
  }

  const byzantine: Record<string, ByzantineCounts> = {};
  for (const r of records) {
    const o = r.obs;
    if (o.kind !== 'byzantine.tx') continue;
    const b = entry(byzantine, o.craft, emptyByzantine);
    if (o.via === 'gossip') {
      b.gossiped++;
      continue;
    }
    b.crafted++;
    const block = blocks.get(o.height!);
    const at = block?.[o.index!];
    if (!block || at?.hash !== o.txHash) continue;
    if (o.ifAccepted !== null && block[o.ifAccepted]?.code !== 0) continue;
    b.delivered++;
    const result = resultOf(at, sideResults.get(o.txHash));
    bump(b.results, result.text);
    if (o.expect === null) b.unjudged++;
    else if (result.text === 'pending') b.pending++;
    else if (
      o.expect.stage === 'deliver'
        ? result.deliverCode(o.expect.codespace, o.expect.codes)
        : result.sideCode(o.expect.codes)
    )
      b.asExpected++;
  }
  return { messages, byzantine };
}

/** A delivered tx's result as text, and whether it is a given refusal. */
function resultOf(t: { code: number; codespace: string; side: boolean }, side: number | undefined) {
  const text =
    t.code !== 0
      ? `${t.codespace}/${t.code}`
      : !t.side
        ? 'accepted'
        : side === undefined
          ? 'pending'
          : side === 0
            ? 'accepted'
            : `side ${side}`;
  return {
    text,
    deliverCode: (codespace: string, codes: readonly number[]) => t.codespace === codespace && codes.includes(t.code),
    sideCode: (codes: readonly number[]) => t.code === 0 && side !== undefined && codes.includes(side),
  };
}

/** Two runs' (or shards') reach, added up. */
export function addReach(a: MessageReach, b: MessageReach): MessageReach {
  const out: MessageReach = JSON.parse(JSON.stringify(a)) as MessageReach;
  for (const [k, c] of Object.entries(b.messages)) {
    const m = entry(out.messages, k, emptyMessage);
    m.delivered += c.delivered;
    m.accepted += c.accepted;
    m.pending += c.pending;
    for (const [code, n] of Object.entries(c.refused)) bump(m.refused, code, n);
  }
  for (const [k, c] of Object.entries(b.byzantine)) {
    const m = entry(out.byzantine, k, emptyByzantine);
    m.crafted += c.crafted;
    m.delivered += c.delivered;
    m.asExpected += c.asExpected;
    m.unjudged += c.unjudged;
    m.pending += c.pending;
    m.gossiped += c.gossiped;
    for (const [code, n] of Object.entries(c.results)) bump(m.results, code, n);
  }
  return out;
}

/** The reach as table lines for a terminal or a markdown summary. */
export function reachTable(reach: MessageReach, markdown = false): string[] {
  const lines: string[] = [];
  const row = (cells: string[]) =>
    markdown
      ? `| ${cells.join(' | ')} |`
      : `  ${cells[0]!.padEnd(20)} ${cells
          .slice(1)
          .map((c, i) => (i < 2 ? c.padStart(8) : c))
          .join(' ')}`;
  const codes = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .map(([k, n]) => `${k}×${n}`)
      .join(', ');
  if (markdown) lines.push('| message | delivered | accepted | refused (code×count) |', '| --- | ---: | ---: | --- |');
  else lines.push(row(['message', 'delivered', 'accepted', 'refused (code×count)']));
  const names = [
    ...MESSAGE_NAMES.values(),
    ...Object.keys(reach.messages).filter((k) => ![...MESSAGE_NAMES.values()].includes(k)),
  ];
  for (const name of names) {
    const c = reach.messages[name] ?? emptyMessage();
    const extra = c.pending > 0 ? `${Object.keys(c.refused).length ? ', ' : ''}pending×${c.pending}` : '';
    lines.push(row([name, String(c.delivered), String(c.accepted), `${codes(c.refused)}${extra}`]));
  }
  return lines;
}

/** The Byzantine kinds as table lines: crafted into its blocks, delivered there, refused as the reference says. */
export function byzantineTable(reach: MessageReach, kinds: readonly string[], markdown = false): string[] {
  const lines: string[] = [];
  if (markdown)
    lines.push(
      '| kind | crafted | delivered | as expected | gossiped | results |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
    );
  else
    lines.push(
      `  ${'kind'.padEnd(28)} ${'crafted'.padStart(8)} ${'delivered'.padStart(9)} ${'expected'.padStart(9)} ${'gossiped'.padStart(9)} results`,
    );
  for (const k of kinds) {
    const b = reach.byzantine[k] ?? emptyByzantine();
    const results = Object.entries(b.results)
      .map(([r, n]) => `${r}×${n}`)
      .join(', ');
    lines.push(
      markdown
        ? `| ${k} | ${b.crafted} | ${b.delivered} | ${b.asExpected} | ${b.gossiped} | ${results} |`
        : `  ${k.padEnd(28)} ${String(b.crafted).padStart(8)} ${String(b.delivered).padStart(9)} ${String(b.asExpected).padStart(9)} ${String(b.gossiped).padStart(9)} ${results}`,
    );
  }
  return lines;
}
