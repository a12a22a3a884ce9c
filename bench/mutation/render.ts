/**
 * The bench's report, from a result (one run, a shard or a merge) and the judgements file: a table
 * per folder (sampled, killed and timed out by the unit tests, killed and hung by the oracles,
 * survivors, and the key figure: of the mutants the unit tests detect, the share the oracles
 * detect), how the oracle stage killed (by oracle, crash, failed expectation or hang, and which
 * oracles), and every mutant that survives the oracles, with its judgement.
 */
import { TARGETS } from './population';
import { type AnyResult, MERGED_KIND, type MutantRecord } from './results';
import { type Judged, type JudgementsFile, judge } from './judgements';
import { OWN_CRYPTO_SCENARIOS } from './campaign';

export interface FolderRow {
  folder: string;
  sampled: number;
  unitKilled: number;
  unitTimeout: number;
  /** Not run by the unit stage: covered only while test files load (Stryker's static, ignored). */
  unitStatic: number;
  oracleKilled: number;
  oracleHang: number;
  survived: number;
  /** Survivors whose code no run of the campaign executes. */
  notReached: number;
  /** Detected by the unit tests (killed or timed out). */
  unitDetected: number;
  /** Of those, detected by the oracle stage (killed or hung), and by an oracle's verdict alone. */
  bothDetected: number;
  bothByOracle: number;
  kinds: Record<'safety' | 'liveness' | 'crash' | 'expectations' | 'hang', number>;
}

const unitDetected = (m: MutantRecord) => m.unit?.status === 'killed' || m.unit?.status === 'timeout';
const oracleDetected = (m: MutantRecord) => m.oracles.status !== 'survived';
const byOracle = (m: MutantRecord) => m.oracles.kind === 'safety' || m.oracles.kind === 'liveness';

export function folderRow(folder: string, ms: readonly MutantRecord[]): FolderRow {
  const kinds = { safety: 0, liveness: 0, crash: 0, expectations: 0, hang: 0 };
  for (const m of ms) if (m.oracles.kind) kinds[m.oracles.kind]++;
  return {
    folder,
    sampled: ms.length,
    unitKilled: ms.filter((m) => m.unit?.status === 'killed').length,
    unitTimeout: ms.filter((m) => m.unit?.status === 'timeout').length,
    unitStatic: ms.filter((m) => m.unit?.status === 'static').length,
    oracleKilled: ms.filter((m) => m.oracles.status === 'killed').length,
    oracleHang: ms.filter((m) => m.oracles.status === 'hang').length,
    survived: ms.filter((m) => m.oracles.status === 'survived').length,
    notReached: ms.filter((m) => m.oracles.status === 'survived' && !m.oracles.reached).length,
    unitDetected: ms.filter(unitDetected).length,
    bothDetected: ms.filter((m) => unitDetected(m) && oracleDetected(m)).length,
    bothByOracle: ms.filter((m) => unitDetected(m) && byOracle(m)).length,
    kinds,
  };
}

export function folderRows(r: AnyResult): FolderRow[] {
  const rows = TARGETS.map((t) =>
    folderRow(
      t,
      r.mutants.filter((m) => m.folder === t),
    ),
  );
  return [...rows, folderRow('total', r.mutants)];
}

function pct(n: number, of: number): string {
  return of === 0 ? '-' : `${((100 * n) / of).toFixed(0)}%`;
}

function table(head: string[], rows: string[][], markdown: boolean): string {
  if (markdown) return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function judgedText(j: Judged): string {
  if (j.verdict === 'equivalent') return `equivalent: ${j.reason}`;
  if (j.verdict === 'gap') return `gap: ${j.rule}${j.note ? ` (${j.note})` : ''}`;
  return j.why === 'stale' ? 'unjudged (the judged code changed)' : 'unjudged';
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function survivors(r: AnyResult): MutantRecord[] {
  return r.mutants
    .filter((m) => m.oracles.status === 'survived')
    .sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.start.line - b.start.line || a.start.column - b.start.column,
    );
}

/** How the campaign's scenarios ran: fast crypto, but for those that run in their own. */
function cryptoText(scenarios: readonly string[]): string {
  const own = scenarios.filter((f) => OWN_CRYPTO_SCENARIOS.has(f)).map((f) => f.replace(/^scenarios\/|\.json$/g, ''));
  return own.length === 0 ? 'fast crypto' : `fast crypto; in their own crypto: ${own.join(', ')}`;
}

function cpuText(r: AnyResult): string {
  const cpu = r.kind === MERGED_KIND ? null : r.cpu;
  if (!cpu) return '';
  const loads =
    r.kind === MERGED_KIND
      ? ''
      : `; load average ${r.machine.loadStart[0]!.toFixed(1)} at the start, ${r.machine.loadEnd[0]!.toFixed(1)} at the end, ${r.machine.cpus} cpus`;
  return `; CPU ${((cpu.selfMs + cpu.childrenMs) / 60_000).toFixed(1)} min (bench ${(cpu.selfMs / 60_000).toFixed(1)}, Stryker's processes ${(cpu.childrenMs / 60_000).toFixed(1)})${loads}`;
}

export interface Report {
  text: string;
  unjudged: number;
}

export function renderReport(r: AnyResult, judgements: JudgementsFile, markdown = false): Report {
  const rows = folderRows(r);
  const p = r.params;
  const out: string[] = [];
  const h = (s: string) => out.push(markdown ? `### ${s}` : s, '');
  const shardText =
    r.kind === MERGED_KIND
      ? `${r.shards.length} of ${r.shardCount} shards${r.missingShards.length ? ` (missing: ${r.missingShards.map((i) => `${i}/${r.shardCount}`).join(', ')})` : ''}`
      : r.shard.count > 1
        ? `shard ${r.shard.index}/${r.shard.count}`
        : 'one run';
  out.push(
    markdown ? `## Mutation score: ${r.mutants.length} mutants` : `Mutation score: ${r.mutants.length} mutants`,
    '',
    `sample ${p.sampleSize} of ${p.populationSize} mutants (seed ${p.seed}), ${shardText}${r.kind !== MERGED_KIND && r.interrupted ? `, INTERRUPTED: ${r.mutants.length} of them ran` : ''}; lockstep ${r.version}${r.commit ? ` at ${r.commit.slice(0, 12)}` : ''}`,
    `mutators ${p.mutators.join(', ')}`,
    `oracle campaign: ${p.campaign.scenarios.length} scenarios (${cryptoText(p.campaign.scenarios)}), then ${p.campaign.swarmSeeds} swarm seeds of ${p.campaign.swarmDurationMs / 60_000} simulated min for their survivors`,
    `baseline: ${r.baseline.length} runs of the unmodified code, all pass; control mutant (known wrong, outside the sample) ${r.control.oracles.status} by ${r.control.oracles.oracle ?? r.control.oracles.kind} in ${r.control.oracles.run}`,
    `wall time: unit stage ${(r.wall.unitMs / 60_000).toFixed(1)} min, oracle stage ${(r.wall.oraclesMs / 60_000).toFixed(1)} min, total ${(r.wall.totalMs / 60_000).toFixed(1)} min${r.kind === MERGED_KIND ? ' (longest shard)' : ''}${cpuText(r)}`,
    '',
  );
  h('By folder');
  out.push(
    table(
      [
        'folder',
        'sampled',
        'unit: killed',
        'unit: timed out',
        'unit: static (not run)',
        'oracles: killed',
        'oracles: hang',
        'survived oracles',
        '(not reached)',
        'unit-detected also caught by the oracles',
        '... by an oracle verdict',
      ],
      rows.map((x) => [
        x.folder,
        String(x.sampled),
        p.unitStage ? String(x.unitKilled) : '-',
        p.unitStage ? String(x.unitTimeout) : '-',
        p.unitStage ? String(x.unitStatic) : '-',
        String(x.oracleKilled),
        String(x.oracleHang),
        String(x.survived),
        String(x.notReached),
        p.unitStage ? `${x.bothDetected}/${x.unitDetected} = ${pct(x.bothDetected, x.unitDetected)}` : '-',
        p.unitStage ? `${x.bothByOracle}/${x.unitDetected} = ${pct(x.bothByOracle, x.unitDetected)}` : '-',
      ]),
      markdown,
    ),
    '',
  );
  h('How the oracle stage killed');
  out.push(
    table(
      ['folder', 'safety oracle', 'liveness oracle', 'crash (assert, invariant, error)', 'failed expectation', 'hang'],
      rows.map((x) => [
        x.folder,
        String(x.kinds.safety),
        String(x.kinds.liveness),
        String(x.kinds.crash),
        String(x.kinds.expectations),
        String(x.kinds.hang),
      ]),
      markdown,
    ),
    '',
  );
  const total = rows.at(-1)!;
  const kills = total.oracleKilled + total.oracleHang;
  out.push(
    `kills by an oracle verdict: ${total.kinds.safety + total.kinds.liveness} of the ${kills} mutants the oracle stage detected (${pct(total.kinds.safety + total.kinds.liveness, kills)}); the rest by a crash, a hang or a failed expectation`,
    '',
  );
  const oracles = new Map<string, number>();
  for (const m of r.mutants)
    if (m.oracles.oracle) oracles.set(m.oracles.oracle, (oracles.get(m.oracles.oracle) ?? 0) + 1);
  const via = { scenario: 0, swarm: 0 };
  for (const m of r.mutants) if (m.oracles.via) via[m.oracles.via]++;
  out.push(
    `first oracle to fire: ${
      [...oracles]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
    `killing run: a scenario ${via.scenario}, a swarm seed ${via.swarm}; static mutants (own worker): ${r.mutants.filter((m) => m.oracles.static).length}`,
    '',
  );
  const surv = survivors(r);
  let unjudged = 0;
  h(`Survivors of the oracles (${surv.length})`);
  const survRows = surv.map((m) => {
    const j = judge(judgements, m);
    if (j.verdict === 'unjudged') unjudged++;
    return [
      `${m.file}:${m.start.line}:${m.start.column}`,
      m.mutator,
      `${oneLine(m.original)} -> ${oneLine(m.replacement)}`,
      m.unit ? m.unit.status : '-',
      m.oracles.reached ? 'yes' : 'NO',
      judgedText(j),
    ];
  });
  if (surv.length)
    out.push(
      table(['where', 'mutator', 'original -> replacement', 'unit tests', 'reached', 'judgement'], survRows, markdown),
      '',
    );
  const gaps = surv.filter((m) => judge(judgements, m).verdict === 'gap').length;
  out.push(
    `judged: ${surv.length - unjudged - gaps} equivalent, ${gaps} gaps, ${unjudged} unjudged (${'bench/mutation/judgements.json'})`,
  );
  return { text: `${out.join('\n')}\n`, unjudged };
}
