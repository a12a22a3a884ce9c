/**
 * The page furniture of report.html: its style sheet and its small script (legend toggles,
 * hovering a block lights the same block in every tree, and a node's detail opens from the node
 * picker or from a link to it). Both are inlined: the page loads nothing, and its
 * Content-Security-Policy forbids it to.
 */

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

export const STYLE = `
:root { --ink:#1f2328; --muted:#656d76; --line:#d0d7de; --bg:#ffffff; --panel:#f6f8fa; --bad:#cf222e; --good:#1a7f37; --warn:#9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
header.top { padding: 18px 28px 12px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top h1 { margin: 0 0 4px; font-size: 22px; }
header.top p.desc { margin: 4px 0 10px; max-width: 980px; color: var(--muted); }
nav a { margin-right: 14px; color: #0969da; text-decoration: none; }
nav a:hover { text-decoration: underline; }
main { padding: 8px 28px 40px; }
section { margin-top: 22px; }
h2 { font-size: 17px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 0; display: inline; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; color: #fff; margin-right: 8px; }
.verdict.pass { background: var(--good); } .verdict.safety, .verdict.crash, .verdict.expectations { background: var(--bad); } .verdict.liveness { background: var(--warn); } .verdict.interrupted { background: var(--muted); }
.partial { display: inline-block; padding: 2px 10px; border-radius: 12px; border: 1px solid var(--warn); color: var(--warn); font-weight: 600; margin-right: 8px; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 8px; margin: 10px 0 4px; }
.fact { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.fact b { display: block; font-size: 18px; }
.fact span { color: var(--muted); font-size: 12px; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 9px; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.ok { color: var(--good); font-weight: 600; } td.fail { color: var(--bad); font-weight: 600; } td.unjudged { color: var(--muted); }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 14px; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px 6px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 4px; }
figure.chart figcaption small { font-weight: 400; color: var(--muted); }
figure.chart .subcap { font-size: 12px; color: var(--muted); margin: 2px 0 0 46px; }
figure.chart svg { width: 100%; height: auto; display: block; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 10px; margin-top: 4px; }
.legend .lg, .keys .key { font: inherit; font-size: 12px; border: 1px solid var(--line); background: var(--bg); border-radius: 10px; padding: 1px 8px 1px 6px; cursor: pointer; color: var(--ink); }
.legend .lg.off { opacity: .35; text-decoration: line-through; }
.legend i, .keys i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.keys { display: flex; flex-wrap: wrap; gap: 6px 12px; margin: 6px 0 10px; font-size: 12px; align-items: center; }
.keys .key { cursor: default; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
[data-series].off { display: none; }
svg .grid { stroke: #eaeef2; stroke-width: 1; }
svg .axis { stroke: #8c959f; stroke-width: 1; }
svg .tick { font-size: 10px; fill: var(--muted); text-anchor: middle; }
svg .ytick { font-size: 10px; fill: var(--muted); text-anchor: end; }
svg .yname { font-size: 11px; fill: var(--muted); text-anchor: middle; }
svg .none { font-size: 12px; fill: var(--muted); font-style: italic; }
svg .band { fill: #cf222e; opacity: .07; }
svg path.series { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
svg path.series:hover { stroke-width: 3.5; }
svg .stems line { stroke-width: 1.5; }
svg .heat rect, svg .heat path { fill: #cf222e; }
svg .heat rect.hit { fill: transparent; }
svg a.heat:hover rect.hit { fill: #0969da; fill-opacity: .12; }
svg .heat.picked rect.hit { fill: #0969da; fill-opacity: .3; }
svg path.area { stroke: none; fill-opacity: .2; }
figure.chart .heatkeys { margin: 4px 0 0 46px; }
figure.chart .outliers { font-size: 12px; margin: 4px 0 0 46px; }
svg .bar .val { font-size: 10px; text-anchor: middle; fill: var(--ink); }
svg .bar:hover rect { opacity: .75; }
svg.timeline { display: block; width: 100%; height: auto; min-width: 980px; }
svg.timeline .sublane { font-size: 10px; fill: var(--muted); text-anchor: end; }
svg.timeline .lane { fill: #fff; } svg.timeline .lane.odd { fill: #f6f8fa; }
svg.timeline .lanename { font-size: 12px; font-weight: 600; fill: var(--ink); }
svg.timeline text { font-size: 11px; fill: var(--ink); }
svg.timeline .tick { font-size: 10px; fill: var(--muted); }
svg .fault rect { fill: #cf222e; opacity: .8; } svg .fault rect.open { opacity: .5; }
svg .fault text.in { fill: #fff; font-weight: 600; }
svg .span line { stroke: #8250df; stroke-dasharray: 2 2; } svg .span circle { fill: #8250df; }
svg .cp line { stroke: #1a7f37; stroke-width: 3; } svg .cp .buf { fill: #fff; stroke: #1a7f37; stroke-width: 1.5; } svg .cp .ack { fill: #1a7f37; }
svg .cp.pending line { stroke-dasharray: 4 3; opacity: .7; }
svg .noack path { stroke: #cf222e; stroke-width: 2.5; fill: none; }
svg .reorgdot { opacity: .85; stroke: #fff; stroke-width: 1; }
svg g:hover > text, svg g:hover > path, svg g:hover > circle { filter: brightness(.85); }
.tree { margin: 8px 0 4px; }
.tree .members { font-size: 12px; color: var(--muted); margin: 2px 0 6px; }
details.rules > summary { cursor: pointer; padding: 4px 2px; }
details.node { border-bottom: 1px solid var(--line); font-size: 13px; }
details.node > summary { cursor: pointer; padding: 2px 4px; }
details.node.picked > summary { background: #ddf4ff; }
details.node .nd { padding: 4px 0 10px 18px; }
details.node table { margin: 4px 0; }
details.node p { margin: 4px 0; }
svg.strip { display: block; width: 100%; max-width: 720px; height: auto; }
svg.strip path.lag { fill: #cf222e; fill-opacity: .3; stroke: #cf222e; stroke-width: 1; }
.tree summary { cursor: pointer; padding: 4px 2px; }
.tree summary .mono { color: var(--muted); }
svg.forktree { display: block; }
svg.forktree .spine { stroke: #57606a; stroke-width: 2; }
svg.forktree .link { stroke: #8c959f; stroke-width: 1.5; fill: none; stroke-dasharray: 3 2; }
svg.forktree .link.orphan { stroke: #cf222e; }
svg.forktree .gap rect { fill: #f6f8fa; stroke: #8c959f; stroke-dasharray: 3 2; }
svg.forktree .gap text { font-size: 10px; fill: var(--muted); text-anchor: middle; }
svg.forktree .blk rect { stroke: #24292f; stroke-width: 1; }
svg.forktree .blk text { font-size: 9.5px; text-anchor: middle; font-variant-numeric: tabular-nums; pointer-events: none; }
svg.forktree .blk.genesis rect { fill: #eaeef2; } svg.forktree .blk.genesis text { fill: var(--muted); }
svg.forktree .blk.side rect { fill-opacity: .4; stroke: #cf222e; stroke-width: 1.5; stroke-dasharray: 3 2; }
svg.forktree .blk.oldhead rect { stroke-width: 2.5; stroke-dasharray: none; }
svg.forktree .blk .bk { fill: #24292f; }
svg.forktree .blk.hl rect { stroke: #0969da; stroke-width: 3; stroke-dasharray: none; }
svg.forktree .blk:hover rect { stroke-width: 2.5; }
svg.forktree .headmark { font-size: 11px; fill: var(--muted); }
svg.forktree .reorg line { stroke: #cf222e; stroke-width: 1.5; }
svg.forktree .reorg text { font-size: 11px; fill: #cf222e; font-weight: 600; }
footer { color: var(--muted); font-size: 12px; padding: 12px 28px 30px; border-top: 1px solid var(--line); }
`;

// Plain ES5, no timers (the page does nothing on its own).
export const SCRIPT = `
(function () {
  var toggles = document.querySelectorAll('[data-toggle]');
  for (var i = 0; i < toggles.length; i++) {
    toggles[i].addEventListener('click', function (ev) {
      var button = ev.currentTarget;
      var key = button.getAttribute('data-toggle');
      var scope = button.closest('figure') || document;
      var parts = scope.querySelectorAll('[data-series]');
      for (var j = 0; j < parts.length; j++) if (parts[j].getAttribute('data-series') === key) parts[j].classList.toggle('off');
      button.classList.toggle('off');
    });
  }
  var lit = [];
  function light(h) {
    for (var k = 0; k < lit.length; k++) lit[k].classList.remove('hl');
    lit = [];
    if (!h) return;
    var same = document.querySelectorAll('svg.forktree .blk[data-h="' + h + '"]');
    for (var m = 0; m < same.length; m++) { same[m].classList.add('hl'); lit.push(same[m]); }
  }
  document.addEventListener('mouseover', function (ev) {
    var t = ev.target;
    var blk = t && t.closest ? t.closest('svg.forktree .blk') : null;
    light(blk ? blk.getAttribute('data-h') : null);
  });
  // A node's detail: opened by #node-<id> (a heat map row, the picker, a link), its heat map row marked.
  var picked = [];
  function openNode() {
    for (var k = 0; k < picked.length; k++) picked[k].classList.remove('picked');
    picked = [];
    var id = decodeURIComponent(location.hash.slice(1));
    if (id.indexOf('node-') !== 0) return;
    var d = document.getElementById(id);
    if (!d || d.tagName !== 'DETAILS') return;
    d.open = true;
    d.classList.add('picked');
    picked.push(d);
    var node = id.slice(5);
    var rows = document.querySelectorAll('.heat[data-node]');
    for (var m = 0; m < rows.length; m++) if (rows[m].getAttribute('data-node') === node) { rows[m].classList.add('picked'); picked.push(rows[m]); }
    var pick = document.getElementById('nodepick');
    if (pick) pick.value = node;
    d.scrollIntoView();
  }
  window.addEventListener('hashchange', openNode);
  var pick = document.getElementById('nodepick');
  if (pick) pick.addEventListener('change', function () {
    if (!pick.value) return;
    if (location.hash === '#node-' + pick.value) openNode();
    else location.hash = 'node-' + pick.value;
  });
  openNode();
})();
`;
