/**
 * The fixed parts of the HTML report: its style and its script, inlined into every report so it
 * opens with no network (a Content-Security-Policy forbids any load). The script reads the run's
 * data from a JSON script element and builds the table and the chart with DOM calls only
 * (`textContent`, never `innerHTML`), so nothing from a response or a request can become markup.
 */

export const HTML_STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --dim: #6e7781; --line: #d0d7de; --bg2: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --dim: #8b949e; --line: #30363d; --bg2: #161b22; } }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 16px 24px; max-width: 1400px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
.meta { color: var(--dim); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; background: var(--bg2); }
.card b { display: block; font-size: 22px; } .card span { color: var(--dim); font-size: 12px; }
.verdict-passed { color: var(--ok); } .verdict-failed { color: var(--bad); }
.filters { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
.filters button[aria-pressed="true"] { font-weight: bold; text-decoration: underline; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.url { word-break: break-all; } .num { text-align: right; white-space: nowrap; }
tr.failed td.mark { color: var(--bad); } tr.passed td.mark { color: var(--ok); } tr.skipped td.mark { color: var(--dim); }
tr.detail td { background: var(--bg2); }
pre { white-space: pre-wrap; word-break: break-all; margin: 4px 0; max-height: 400px; overflow: auto; }
.test { white-space: pre-wrap; } .test-failed { color: var(--bad); } .test-passed { color: var(--ok); } .dim { color: var(--dim); }
svg { width: 100%; height: 220px; border: 1px solid var(--line); border-radius: 6px; }
`;

export const HTML_SCRIPT = `
(() => {
  const data = JSON.parse(document.getElementById('ferry-data').textContent);
  const rows = data.results;
  const LIMIT = 2000;
  let filter = 'all';
  let query = '';
  const el = (tag, props, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'text') node.textContent = v; else if (k === 'className') node.className = v; else node.setAttribute(k, v);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  };
  const outcome = (r) => (r.skipped !== null ? 'skipped' : r.passed ? 'passed' : 'failed');
  const haystack = (r) => [r.name, r.path, r.folder, r.method, r.url, r.status, r.statusText, r.statusLabel, r.error, ...r.tests.map((t) => t.name + ' ' + (t.message || ''))].join(' ').toLowerCase();
  const matches = (r) => (filter === 'all' || outcome(r) === filter) && (!query || haystack(r).includes(query));

  function detail(r) {
    const box = el('div');
    if (r.error) box.append(el('pre', { className: 'test-failed', text: 'error: ' + r.error }));
    if (r.skipped !== null) box.append(el('div', { className: 'dim', text: 'skipped: ' + r.skipped }));
    for (const t of r.tests) {
      const cls = t.skipped ? 'dim' : t.passed ? 'test-passed' : 'test-failed';
      box.append(el('div', { className: cls + ' test', text: (t.skipped ? '– ' : t.passed ? '✓ ' : '✗ ') + t.name + (t.message ? ': ' + t.message : '') }));
    }
    for (const line of r.console) box.append(el('div', { className: 'dim', text: '│ ' + line }));
    if (r.response) {
      const res = el('details', { className: 'response' }, el('summary', { text: 'Response' + (r.response.truncated ? ' (body cut: ' + r.response.bodySize + ' bytes in all)' : '') }));
      res.append(el('pre', { className: 'headers', text: r.response.headers.map((h) => h.name + ': ' + h.value).join('\\n') }));
      if (r.response.binary) res.append(el('div', { className: 'dim', text: '[binary body, ' + r.response.bodySize + ' bytes]' }));
      else if (r.response.leftOut) res.append(el('div', { className: 'dim body-left-out', text: '[body of ' + r.response.bodySize + ' bytes left out: this page already holds ' + data.bodyLimitMb + ' MB of bodies; the JSON report (--out-json) keeps every body]' }));
      else if (r.response.body !== null) res.append(el('pre', { className: 'body', text: r.response.body }));
      box.append(res);
    }
    return box;
  }

  function render() {
    const body = document.getElementById('rows');
    body.replaceChildren();
    let matched = 0;
    for (const r of rows) {
      if (!matches(r)) continue;
      matched++;
      if (matched > LIMIT) continue;
      const kind = outcome(r);
      const tr = el('tr', { className: 'row ' + kind },
        el('td', { className: 'mark', text: kind === 'passed' ? '✓' : kind === 'failed' ? '✗' : '○' }),
        el('td', { className: 'num', text: String(r.iteration + 1) }),
        el('td', {}, el('div', { className: 'name', text: r.name }), el('div', { className: 'dim', text: r.path })),
        el('td', { text: r.method }),
        el('td', { className: 'url', text: r.url }),
        el('td', { className: 'num status', text: r.status === null ? '' : r.statusLabel || r.status + (r.statusText ? ' ' + r.statusText : '') }),
        el('td', { className: 'num', text: r.durationMs + ' ms' }),
        el('td', { className: 'num', text: r.size === null ? '' : r.size + ' B' }));
      body.append(tr);
      if (r.error || r.tests.length || r.console.length || r.response || r.skipped !== null) {
        // Failed requests open, so their failed tests show at once; the others open on a click.
        const d = el('details', kind === 'failed' ? { open: '' } : {}, el('summary', { text: kind === 'failed' ? 'Why it failed' : 'Details' }), detail(r));
        body.append(el('tr', { className: 'detail ' + kind }, el('td'), el('td', { colspan: '7' }, d)));
      }
    }
    document.getElementById('shown').textContent = matched > LIMIT ? 'showing the first ' + LIMIT + ' of ' + matched + ' matching requests (narrow the search to see others)' : matched + ' matching request' + (matched === 1 ? '' : 's');
  }

  for (const button of document.querySelectorAll('[data-filter]')) {
    button.addEventListener('click', () => {
      filter = button.getAttribute('data-filter');
      for (const b of document.querySelectorAll('[data-filter]')) b.setAttribute('aria-pressed', String(b === button));
      render();
    });
  }
  document.getElementById('search').addEventListener('input', (e) => { query = e.target.value.trim().toLowerCase(); render(); });

  // The timeline: each send at its start time (x) and its duration (y), at most 3,000 drawn.
  function chart() {
    const svg = document.getElementById('timeline');
    const NS = 'http://www.w3.org/2000/svg';
    const W = 1000, H = 200, PAD = 30;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const start = Date.parse(data.summary.startedAt) || 0;
    const points = rows.map((r) => ({ x: Math.max(0, (Date.parse(r.startedAt) || start) - start), w: r.durationMs, r }));
    const endMs = Math.max(1, ...points.slice(-5000).map((p) => p.x + p.w), data.summary.durationMs);
    const maxD = Math.max(1, ...points.map((p) => p.w));
    const step = Math.max(1, Math.ceil(points.length / 3000));
    const line = (x1, y1, x2, y2) => { const l = document.createElementNS(NS, 'line'); l.setAttribute('x1', x1); l.setAttribute('y1', y1); l.setAttribute('x2', x2); l.setAttribute('y2', y2); l.setAttribute('stroke', 'currentColor'); l.setAttribute('stroke-opacity', '0.3'); svg.append(l); };
    const label = (x, y, text, anchor) => { const t = document.createElementNS(NS, 'text'); t.setAttribute('x', x); t.setAttribute('y', y); t.setAttribute('font-size', '11'); t.setAttribute('fill', 'currentColor'); t.setAttribute('text-anchor', anchor || 'start'); t.textContent = text; svg.append(t); };
    line(PAD, H - PAD, W - 5, H - PAD); line(PAD, 5, PAD, H - PAD);
    label(PAD, H - 8, '0 ms'); label(W - 5, H - 8, Math.round(endMs) + ' ms since the start', 'end'); label(PAD + 4, 14, maxD + ' ms');
    for (let i = 0; i < points.length; i += step) {
      const p = points[i];
      const rect = document.createElementNS(NS, 'rect');
      const x = PAD + (p.x / endMs) * (W - PAD - 5);
      const h = Math.max(1, (p.w / maxD) * (H - PAD - 10));
      rect.setAttribute('x', String(x)); rect.setAttribute('y', String(H - PAD - h));
      rect.setAttribute('width', String(Math.max(1.5, (p.w / endMs) * (W - PAD - 5)))); rect.setAttribute('height', String(h));
      rect.setAttribute('fill', outcome(p.r) === 'failed' ? 'var(--bad)' : 'var(--ok)');
      rect.setAttribute('class', 'bar');
      const title = document.createElementNS(NS, 'title');
      title.textContent = p.r.name + ' — ' + p.r.durationMs + ' ms';
      rect.append(title);
      svg.append(rect);
    }
  }
  render();
  chart();
})();
`;
