/**
 * The HTML report (`-r html`, `--out-html FILE`): one self-contained page with the summary, a
 * table of every send with filters (passed / failed / skipped, text search), failed tests shown
 * open, response bodies with `--report-bodies`, and a timeline chart. No network: style and script
 * are inline and a Content-Security-Policy forbids loading anything. Each send is spooled as it
 * arrives (the JSON report's entry for it), so memory stays flat however long the run.
 *
 * Escaping: the page's own text goes through `escapeHtml`; the run's data sits in a
 * `<script type="application/json">` with every `<` written `\u003c` (no `</script>` can close it)
 * and is shown with `textContent` only.
 */
import type { Reporter, RunEvent } from '../events.js';
import { SpoolFolder } from '../report-spool.js';
import { formatMs } from '../../support/human-units.js';
import { shownName } from '../../support/shown-name.js';
import { reportEntry, type JsonReport } from './json.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-page.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON that can sit inside a script element: no `<` (so no `</script>` or `<!--`), no line separators JS once refused. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/**
 * Characters of response bodies one page holds (`--report-bodies`), counted as written in it
 * (escaped). A browser parses the page's data whole: 10,000 sends of 64 KB each would be a 640 MB
 * page no browser opens. Past this, a send's headers are kept and its body is left out, saying so
 * (the JSON report keeps every body).
 */
export const HTML_BODY_CHARS = 20 * 1024 * 1024;

export class HtmlReporter implements Reporter {
  private start: Extract<RunEvent, { type: 'start' }> | undefined;
  private end: Extract<RunEvent, { type: 'end' }> | undefined;
  private readonly spools = new SpoolFolder();
  private readonly rows = this.spools.spool();
  private count = 0;
  /** Characters of bodies the page holds so far (`HTML_BODY_CHARS`). */
  private bodyChars = 0;
  private readonly warnings: string[] = [];

  constructor(
    private readonly write: (text: string) => Promise<void> | void,
    private readonly options: { bodies?: boolean } = {},
  ) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'start') this.start = event;
    if (event.type === 'warning' && this.warnings.length < 100) this.warnings.push(event.message);
    if (event.type === 'request') {
      // Without the streaming kinds' messages and the kinds' detail, which the page does not show
      // (1,000 messages of 64 KB each a send; the JSON report keeps them).
      const { messages: _messages, detail: _detail, ...entry } = reportEntry(event.result, this.options.bodies);
      // Names as the app shows them: a bidi override in a hand-edited request name or a script's test
      // name would reorder the page's text (`\u202Elmay.exe` shows as `exe.yaml`); escaped, visibly.
      const named = { ...entry, name: shownName(entry.name), path: shownName(entry.path), tests: entry.tests.map((t) => ({ ...t, name: shownName(t.name) })) };
      const row = { ...named, startedAt: event.result.startedAt, ...(entry.response ? { response: this.kept(entry.response) } : {}) };
      this.rows.append(`${this.count++ ? ',\n' : ''}${scriptJson(row)}`);
    }
    if (event.type === 'end') this.end = event;
  }

  /** The response as the page keeps it: its body left out once the page holds `HTML_BODY_CHARS` of bodies. */
  private kept(response: NonNullable<JsonReport['results'][number]['response']>): typeof response & { leftOut?: true } {
    if (!response.body) return response;
    // As written into the page: a control character takes 6 (`\u001b`).
    const chars = scriptJson(response.body).length;
    if (this.bodyChars + chars > HTML_BODY_CHARS) return { ...response, body: null, leftOut: true };
    this.bodyChars += chars;
    return response;
  }

  async finish(): Promise<void> {
    if (!this.end) return;
    try {
      const s = this.end.summary;
      const title = `Ferry run · ${this.start?.workspace ?? ''}`;
      const failed = s.failedRequests > 0 || s.failedTests > 0;
      const interrupted = this.end.interrupted;
      const card = (id: string, value: string | number, label: string) => `<div class="card"><b id="${id}">${escapeHtml(String(value))}</b><span>${label}</span></div>`;
      const summary = { ...s, bailed: this.end.bailed, startedAt: this.start?.startedAt ?? '', environment: this.start?.environment ?? null, workspace: this.start?.workspace ?? '' };
      await this.write(
        `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)} · <span id="verdict" class="verdict-${failed || interrupted ? 'failed' : 'passed'}">${failed ? 'FAILED' : interrupted ? 'STOPPED' : 'PASSED'}</span></h1>
<div class="meta">${escapeHtml(`started ${this.start?.startedAt ?? ''}${this.start?.environment ? ` · environment ${this.start.environment}` : ''}${this.end.bailed ? ' · stopped at the first failure (--bail)' : ''}${interrupted ? ` · stopped by ${this.end.stoppedBy ?? 'Ctrl-C'}: the requests after it were not run` : ''}`)}</div>
<div class="cards">
${card('sum-requests', s.requests, 'requests')}
${card('sum-failed-requests', s.failedRequests, 'failed requests')}
${card('sum-skipped-requests', s.skippedRequests, 'skipped requests')}
${card('sum-tests', s.tests, 'tests')}
${card('sum-failed-tests', s.failedTests, 'failed tests')}
${card('sum-iterations', s.iterations, 'iterations')}
${card('sum-duration', formatMs(s.durationMs), 'duration')}
</div>
${this.warnings.length ? `<h2>Warnings</h2><ul id="warnings">${this.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>` : ''}
<h2>Timeline</h2>
<svg id="timeline" role="img" aria-label="each request by its start time and duration"></svg>
<h2>Requests</h2>
<div class="filters">
<button type="button" data-filter="all" aria-pressed="true">All</button>
<button type="button" data-filter="passed" aria-pressed="false">Passed</button>
<button type="button" data-filter="failed" aria-pressed="false">Failed</button>
<button type="button" data-filter="skipped" aria-pressed="false">Skipped</button>
<input id="search" type="search" placeholder="Search names, URLs, statuses, tests…" aria-label="search">
<span id="shown" class="dim"></span>
</div>
<table>
<thead><tr><th></th><th>Iter.</th><th>Request</th><th>Method</th><th>URL</th><th>Status</th><th>Time</th><th>Size</th></tr></thead>
<tbody id="rows"></tbody>
</table>
<script id="ferry-data" type="application/json">{"summary":${scriptJson(summary)},"bodyLimitMb":${HTML_BODY_CHARS / 1024 / 1024},"results":[`,
      );
      for await (const piece of this.rows.read()) await this.write(piece);
      await this.write(`]}</script>\n<script>${HTML_SCRIPT}</script>\n</body>\n</html>\n`);
    } finally {
      await this.spools.remove();
    }
  }
}
