/**
 * report.html: one self-contained page per run — the verdict and counts, a timeline of faults,
 * spans, checkpoints, no-acks and reorgs, charts (sidechain height with each node's lag behind the
 * highest head, service height with the blocks not yet checkpointed, reorg depth, checkpoint
 * latency), the sidechain fork trees, and a detail per node on demand, all as inline SVG with
 * inline CSS and a few lines of script. Up to EVERY_NODE_UP_TO sidechain nodes every node has its
 * own line, row and tree; above, the page aggregates (a band and a lag heat map, reorg events,
 * identical trees drawn once with their node list), so it stays readable and small at a hundred
 * nodes. It loads nothing (its Content-Security-Policy says so), and it is a pure function of the
 * scenario and the run: no dates, no wall time, everything in a canonical order, so the same run
 * gives the same bytes in either placement.
 */
import { type RunResult } from '../run/run';
import { type Scenario } from '../scenario/scenario';
import { faultGroups } from './aggregate/faultGroups';
import { heightBand } from './aggregate/heightBand';
import { aggregateNodes } from './aggregate/threshold';
import { type Band, barChart, timeChart, type TimeSeries } from './html/charts';
import { esc, int, seconds } from './html/format';
import { forkTreesSection, treeAnchors } from './html/forkTreesSection';
import { rulesSection } from './html/rulesSection';
import { nodesSection } from './html/nodesSection';
import { CSP, SCRIPT, STYLE } from './html/page';
import { UNKNOWN_COLOR, producerLookup, validatorColor } from './html/palette';
import { heightChart, reorgChart } from './html/sidechainCharts';
import { timelineData, timelineSvg } from './html/timeline';
import { mainFacts } from './mainFacts';
import { expectedText, type RunOutcome, runOutcome } from './outcome';

/** At most this many oracle violations are listed (the first decides the verdict). */
const MAX_VIOLATIONS = 50;

/** `outcome` is the run's verdict with its expectations (default: judged as a whole run). */
export function reportHtml(scenario: Scenario, r: RunResult, outcome?: RunOutcome): string {
  const o = outcome ?? runOutcome(scenario, r);
  const producer = producerLookup(mainFacts(r).validators);
  const nodeIds = r.sidechain.nodes.map((n) => n.node);
  // Sidechain node i belongs to validator i: its line has the colour of that validator's blocks.
  const nodeColorOf = new Map<string, string>(nodeIds.map((id, i) => [id, validatorColor(i + 1)]));
  const nodeColor = (id: string) => nodeColorOf.get(id) ?? UNKNOWN_COLOR;
  const timeline = timelineData(scenario, r);
  const aggregate = aggregateNodes(nodeIds.length);
  // Faults that fired and healed together are one shaded period.
  const bands: Band[] = faultGroups(timeline.faults, { maxItems: 6 }).map((f) => ({
    startMs: f.startMs,
    endMs: f.endMs ?? r.simulatedMs,
    title: `${f.kind}${f.indexes.length > 1 ? ` ×${f.indexes.length}` : ''} (${f.text})`,
  }));
  const title = `${r.scenario} (seed ${r.seed})`;

  const parts: string[] = [];
  parts.push('<!DOCTYPE html>');
  parts.push('<html lang="en"><head><meta charset="utf-8">');
  parts.push(`<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`);
  parts.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  parts.push('<link rel="icon" href="data:,">');
  parts.push(`<title>${esc(`Lockstep run: ${title}`)}</title>`);
  parts.push(`<style>${STYLE}</style></head><body>`);

  // Header: verdict, what the scenario is, the counts.
  const c = r.counts;
  parts.push('<header class="top">');
  parts.push(`<h1>${esc(r.scenario)} <small class="mono">seed ${r.seed}</small></h1>`);
  parts.push(`<p class="desc">${esc(scenario.description)}</p>`);
  const partial = o.shortened
    ? `<span class="partial">SHORTENED</span>ran ${esc(seconds(r.simulatedMs))} of the scenario's ${esc(seconds(scenario.durationMs))}${o.notJudged.length ? `; ${o.notJudged.length} expectation${o.notJudged.length === 1 ? '' : 's'} not judged` : ''}. `
    : o.interrupted
      ? `<span class="partial">PARTIAL</span>stopped at ${esc(seconds(r.simulatedMs))} of the scenario's ${esc(seconds(scenario.durationMs))}. `
      : '';
  parts.push(
    `<p><span class="verdict ${esc(o.verdict)}" id="verdict">${esc(o.verdict.toUpperCase())}</span>${partial}${esc(o.message)}</p>`,
  );
  parts.push(
    '<nav><a href="#timeline">timeline</a><a href="#charts">charts</a><a href="#forks">fork trees</a><a href="#nodes">nodes</a><a href="#expectations">expectations</a>' +
      (r.violations.length ? '<a href="#violations">violations</a>' : '') +
      '<a href="#rules">rules</a></nav>',
  );
  parts.push('</header><main>');

  const fact = (value: string, what: string) => `<div class="fact"><b>${value}</b><span>${what}</span></div>`;
  parts.push('<section id="overview"><div class="facts">');
  parts.push(fact(esc(seconds(r.simulatedMs)), `simulated, ${esc(r.crypto)} crypto`));
  parts.push(fact(int(r.events), 'events delivered'));
  parts.push(fact(int(c.serviceBlocks), 'service blocks'));
  parts.push(fact(int(c.sidechainBlocks), `sidechain blocks, ${int(r.backupBlocks)} by backups`));
  parts.push(fact(int(c.reorgs), `reorgs, deepest ${r.maxReorgDepth}`));
  parts.push(fact(int(c.spans), 'spans beyond genesis'));
  parts.push(fact(`${int(c.checkpointsAcked)} / ${int(c.noAcks)}`, 'checkpoints acked / no-acks'));
  parts.push(fact(int(r.faultsFired.length), 'faults fired'));
  parts.push(
    fact(
      int(r.network.delivered),
      `messages delivered of ${int(r.network.sent)} (${int(r.network.dropped)} dropped, ${int(r.network.blocked)} blocked, ${int(r.network.duplicated)} duplicated)`,
    ),
  );
  parts.push('</div>');
  parts.push(`<p class="mono">trace hash ${esc(r.traceHash)}</p></section>`);

  // Timeline.
  parts.push('<section id="timeline"><h2>Timeline</h2>');
  parts.push(
    '<div class="keys"><span class="key"><i style="background:#cf222e"></i>fault (shaded while in force)</span><span class="key"><i style="background:#8250df"></i>span committed</span><span class="key"><i style="background:#1a7f37"></i>checkpoint: buffered ○ → acked ◆</span><span class="key"><i style="background:#cf222e"></i>no-ack ✕</span><span class="key"><i style="background:#57606a;border-radius:5px"></i>reorg (size = depth, colour = node)</span></div>',
  );
  parts.push(`<div class="scroll">${timelineSvg(timeline, nodeColor, (id) => nodeIds.indexOf(id), aggregate)}</div>`);
  if (timeline.faults.length) {
    parts.push(
      '<details><summary>faults</summary><table><tr><th>#</th><th>kind</th><th>detail</th><th>from</th><th>to</th></tr>',
    );
    for (const f of timeline.faults) {
      parts.push(
        `<tr><td class="num">${f.index}</td><td>${esc(f.kind)}</td><td>${esc(f.detail)}</td><td class="num">${esc(seconds(f.startMs))}</td><td class="num">${f.endMs === null ? 'end' : esc(seconds(f.endMs))}</td></tr>`,
      );
    }
    parts.push('</table></details>');
  }
  parts.push('</section>');

  // Charts.
  const t = r.samples.timeMs;
  const band = heightBand(t, r.samples.sidechainHeight, nodeIds);
  const serviceSeries: TimeSeries[] = [
    {
      key: 'service',
      name: 'service height',
      color: '#0969da',
      kind: 'line',
      points: r.samples.serviceHeight.map((h, i): [number, number] => [t[i] ?? 0, h]),
    },
  ];
  const acked = timeline.checkpoints.filter((x) => x.bufferedMs !== null && x.ackedMs !== null);
  const pending = timeline.checkpoints.length - acked.length;
  parts.push('<section id="charts"><h2>Charts</h2><div class="charts">');
  parts.push(heightChart(r, band, nodeColor, bands, aggregate));
  // Sidechain blocks beyond the last acked checkpoint, at each sample.
  const best = band.max;
  const ackedEnds = timeline.checkpoints
    .filter((x) => x.ackedMs !== null && x.end !== null)
    .map((x) => ({ atMs: x.ackedMs!, end: Number(x.end) }))
    .sort((a, b) => a.atMs - b.atMs);
  const unCheckpointed: TimeSeries = {
    key: 'unchecked',
    name: 'not yet checkpointed',
    color: '#1a7f37',
    kind: 'line',
    points: t.map((ms, i): [number, number] => {
      let end = 0;
      for (const a of ackedEnds) if (a.atMs <= ms) end = Math.max(end, a.end);
      return [ms, Math.max(0, best[i]! - end)];
    }),
  };
  parts.push(
    timeChart({
      title: 'Service height',
      note: 'committed blocks (highest node), sampled',
      endMs: r.simulatedMs,
      bands,
      panels: [
        { yName: 'height', series: serviceSeries, integer: true },
        {
          yName: 'blocks',
          series: [unCheckpointed],
          integer: true,
          height: 140,
          caption: 'sidechain blocks above the last acked checkpoint',
        },
      ],
    }),
  );
  parts.push(reorgChart(timeline, nodeIds, nodeColor, bands, r.simulatedMs, aggregate));
  parts.push(
    barChart({
      title: 'Checkpoint latency',
      note: `buffered to acked, per checkpoint${pending ? `; ${pending} not acked by the end` : ''}`,
      yName: 'seconds',
      color: '#1a7f37',
      bars: acked.map((x) => ({
        label: x.number ?? `@${x.start}`,
        value: (x.ackedMs! - x.bufferedMs!) / 1000,
        title: `checkpoint ${x.number ?? '?'} (blocks ${x.start}–${x.end ?? '?'}): buffered ${seconds(x.bufferedMs!)}, acked ${seconds(x.ackedMs!)}, latency ${seconds(x.ackedMs! - x.bufferedMs!)}`,
      })),
    }),
  );
  parts.push('</div></section>');

  parts.push(forkTreesSection(scenario, r, { producer, nodeColor, aggregate }));
  parts.push(nodesSection({ scenario, result: r, band, faults: timeline.faults, trees: treeAnchors(r, aggregate) }));

  // Expectations and violations.
  parts.push(
    '<section id="expectations"><h2>Expectations</h2><table><tr><th>what</th><th>expected</th><th>actual</th><th></th></tr>',
  );
  const cell = { ok: ['ok', 'ok'], failed: ['fail', 'FAIL'], 'not judged': ['unjudged', 'not judged'] } as const;
  for (const ch of o.checks) {
    const [cls, text] = cell[ch.status];
    parts.push(
      `<tr><td>${esc(ch.what)}</td><td>${esc(expectedText(ch))}</td><td>${esc(String(ch.actual))}</td><td class="${cls}">${text}</td></tr>`,
    );
  }
  parts.push('</table></section>');
  if (r.violations.length) {
    parts.push(
      `<section id="violations"><h2>Oracle violations</h2><table><tr><th>at</th><th>oracle</th><th>class</th><th>node</th><th>message</th></tr>`,
    );
    for (const v of r.violations.slice(0, MAX_VIOLATIONS)) {
      parts.push(
        `<tr><td class="num">${esc(seconds(v.atMs))}</td><td>${esc(v.oracle)}</td><td>${esc(v.class)}</td><td>${esc(v.node)}</td><td>${esc(v.message)}</td></tr>`,
      );
    }
    parts.push('</table>');
    if (r.violations.length > MAX_VIOLATIONS) parts.push(`<p>… and ${r.violations.length - MAX_VIOLATIONS} more.</p>`);
    parts.push('</section>');
  }

  parts.push(rulesSection(r.rulesExercised));

  parts.push('</main>');
  parts.push(
    `<footer>lockstep run · scenario ${esc(r.scenario)} · seed ${r.seed} · ${esc(r.crypto)} crypto · simulated ${esc(seconds(r.simulatedMs))} · trace ${esc(r.traceHash)}</footer>`,
  );
  parts.push(`<script>${SCRIPT}</script>`);
  parts.push('</body></html>\n');
  return parts.join('\n');
}
