/**
 * The terminal reporter: each request as it finishes (method, URL, status, time, size), its tests
 * and console lines, then a summary. Colour only when the output is a terminal.
 */
import pc from 'picocolors';
import type { Reporter, RequestResult, RunEvent, RunSummary } from '../events.js';
import { statusReason, statusShown } from '../response.js';
import { formatBytes, formatMs } from '../../support/human-units.js';
import { terminalLine, terminalText } from '../../support/terminal-text.js';
import { cutText, type CapturedResponse } from '../response-capture.js';

export interface TextSink {
  write(text: string): void;
  color: boolean;
}

/** Text for one line of the report (a name, a URL, a status). */
const t = terminalLine;

/** Text of several lines (a message, an error, a console line, a body): escaped, line feeds kept. */
const lines = (text: string): string[] => terminalText(text).split('\n');

/** Failed sends listed again in the summary; a long run's others are counted (each was printed as it ran). */
const LISTED_FAILURES = 50;

export class CliReporter implements Reporter {
  private readonly c;
  private folder: string | undefined;
  private iterations = 1;
  /** The failed sends the summary lists again: the first `LISTED_FAILURES`, and how many there were. */
  private readonly failures: RequestResult[] = [];
  private failureCount = 0;

  constructor(
    private readonly sink: TextSink,
    private readonly options: { verbose?: boolean } = {},
  ) {
    this.c = pc.createColors(sink.color);
  }

  onEvent(event: RunEvent): void {
    const { c } = this;
    switch (event.type) {
      case 'start': {
        this.iterations = event.iterations;
        const env = event.environment ? c.dim(` · environment ${t(event.environment)}`) : '';
        const count = `${event.requestCount} request${event.requestCount === 1 ? '' : 's'}${event.iterations > 1 ? ` × ${event.iterations} iterations` : ''}`;
        this.sink.write(`${c.bold(`ferry run · ${t(event.workspace)}`)}${env} ${c.dim(`· ${count}`)}\n`);
        return;
      }
      case 'iteration':
        this.folder = undefined;
        this.sink.write(`\n${c.bold(`Iteration ${event.iteration + 1}/${event.iterations}`)}\n`);
        return;
      case 'warning':
        this.sink.write(`${c.yellow(`! ${t(event.message)}`)}\n`);
        return;
      case 'request':
        this.request(event.result);
        if (!event.result.passed && this.failureCount++ < LISTED_FAILURES) this.failures.push(event.result);
        return;
      case 'end':
        this.summary(event.summary, event.bailed, event.interrupted ? (event.stoppedBy ?? 'Ctrl-C') : undefined);
        return;
    }
  }

  private request(r: RequestResult): void {
    const { c } = this;
    const out: string[] = [];
    if (r.folder !== this.folder) {
      this.folder = r.folder;
      out.push('', r.folderNames.length ? c.bold(`${t(r.folderNames.join(' / '))}/`) : c.bold('(root)'));
    }
    const mark = r.skipped ? c.dim('○') : r.passed ? c.green('✓') : c.red('✗');
    out.push(`${mark} ${t(r.name)} ${c.dim(t(r.path))}`);
    if (r.skipped) {
      out.push(`    ${c.dim(`skipped: ${t(r.skipped)}`)}`);
    } else if (r.method || r.url) {
      // A file that could not be read has neither: its error below says it all, no blank line.
      const status = r.status === undefined ? '' : ` ${((r.statusOk ?? r.status < 400) ? c.green : c.red)(t(statusShown(r)))}`;
      const facts = r.status === undefined ? '' : c.dim(` ${formatMs(r.durationMs)} · ${formatBytes(r.size)}`);
      const attempts = r.attempts && r.attempts > 1 ? c.dim(` · ${r.attempts} attempts`) : '';
      const events = r.stream ? c.dim(` · ${t(streamFacts(r.stream))}`) : '';
      // Kinds without a method (WebSocket, MQTT…) show the URL alone.
      out.push(`    ${r.method ? `${c.cyan(t(r.method))} ` : ''}${t(r.url)}${status}${facts}${events}${attempts}`);
    }
    if (this.options.verbose && r.response) out.push(...responseLines(r, r.response, c, this.sink.color));
    // Each line of a console entry under the bar: a logged `\n✓ fake` stays inside it.
    for (const text of r.console) for (const line of lines(text)) out.push(`    ${c.dim(`│ ${line}`)}`);
    for (const test of r.tests) {
      if (test.skipped) out.push(`    ${c.dim(`- ${t(test.name)} (skipped)`)}`);
      else if (test.passed) out.push(`    ${c.green('✓')} ${t(test.name)}`);
      else {
        out.push(`    ${c.red('✗')} ${t(test.name)}`);
        if (test.message) for (const line of lines(test.message)) out.push(`        ${c.red(line)}`);
      }
    }
    if (r.error) for (const line of lines(r.error)) out.push(`    ${c.red(`error: ${line}`)}`);
    const why = statusFailure(r);
    if (why) out.push(`    ${c.red(t(why))}`);
    this.sink.write(`${out.join('\n')}\n`);
  }

  /** `stoppedBy`: what interrupted the run (Ctrl-C, SIGTERM); undefined when nothing did. */
  private summary(s: RunSummary, bailed: boolean, stoppedBy: string | undefined): void {
    const interrupted = stoppedBy !== undefined;
    const { c } = this;
    const count = (n: number, failed: number, word: string) =>
      `${n} ${word}${n === 1 ? '' : 's'}${failed ? `, ${c.red(`${failed} failed`)}` : ''}`;
    const out = ['', c.bold('Summary')];
    out.push(`  ${count(s.requests, s.failedRequests, 'request')}${s.skippedRequests ? c.dim(`, ${s.skippedRequests} skipped`) : ''}`);
    out.push(`  ${count(s.tests, s.failedTests, 'test')}`);
    if (this.iterations > 1) out.push(`  ${s.iterations < this.iterations ? `${s.iterations} of ${this.iterations}` : s.iterations} iterations`);
    out.push(`  ${formatMs(s.durationMs)}`);
    const failed = this.failures;
    if (failed.length) {
      out.push('', c.bold(c.red('Failures')));
      failed.forEach((r, i) => {
        const iter = this.iterations > 1 ? ` (iteration ${r.iteration + 1})` : '';
        out.push(`  ${i + 1}. ${t(r.path)}${iter}`);
        if (r.error) out.push(`     ${lines(r.error).join('\n     ')}`);
        const why = statusFailure(r);
        if (why) out.push(`     ${t(why)}`);
        // The whole message: a first line may only introduce the next (jsonSchema's 'found following errors: ').
        for (const test of r.tests) if (!test.passed && !test.skipped) out.push(`     ${t(test.name)}${test.message ? `: ${lines(test.message).join('\n       ')}` : ''}`);
      });
      const more = this.failureCount - failed.length;
      if (more > 0) out.push(`  … and ${more} more failed request${more === 1 ? '' : 's'}: each is shown above (and in the JSON report, -r json).`);
    }
    if (bailed) out.push('', c.yellow('Stopped at the first failure (--bail).'));
    if (interrupted) out.push('', c.yellow(`Stopped by ${stoppedBy}: the request in flight was cancelled, and the ones after it were not run.`));
    out.push('', s.failedRequests || s.failedTests ? c.red(c.bold('FAILED')) : interrupted ? c.yellow(c.bold('STOPPED')) : c.green(c.bold('PASSED')));
    this.sink.write(`${out.join('\n')}\n`);
  }
}

const STOPPED_BY = { event: 'stopped at the named event', maxEvents: 'stopped at maxEvents', timeout: 'stopped at the time limit', closed: 'stream closed by the server', complete: 'subscription completed by the server', error: 'subscription ended by a server error' };

/** Bytes of a body `--verbose` prints; the rest is cut, with a note. */
export const VERBOSE_BODY_BYTES = 16 * 1024;

/**
 * `--verbose`: the response's status line, headers and body, indented under the request line,
 * as Newman's `--verbose` shows them. JSON is pretty-printed on a terminal (where colour is used);
 * a binary body is shown as its size; a long one is cut with a note saying so.
 */
function responseLines(r: RequestResult, response: CapturedResponse, c: ReturnType<typeof pc.createColors>, terminal: boolean): string[] {
  const pad = '    ';
  const out: string[] = [];
  // The kind's label when it has one (a gRPC status is not an HTTP one, though carried over HTTP/2); else HTTP's status line.
  const version = r.httpVersion && r.statusLabel === undefined ? `HTTP/${r.httpVersion} ` : '';
  if (r.status !== undefined) out.push(`${pad}${c.dim(`${version}${t(statusShown(r))}`)}`);
  for (const [name, value] of response.headers) out.push(`${pad}${c.dim(`${t(name)}:`)} ${t(value)}`);
  if (response.binary) {
    out.push(`${pad}${c.dim(`[binary body, ${formatBytes(response.bodySize)}]`)}`);
    return out;
  }
  if (response.body === null) return out;
  const cut = cutText(response.body, VERBOSE_BODY_BYTES);
  let body = cut.text;
  const type = response.bodyType ?? response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (terminal && !cut.cut && !response.truncated && /\bjson\b|\+json/i.test(type)) {
    try {
      body = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // Not JSON after all: shown as it came.
    }
  }
  out.push('');
  // A body's last line feed ends its last line: no indented empty line after it.
  for (const line of lines(body.endsWith('\n') ? body.slice(0, -1) : body)) out.push(`${pad}${line}`);
  if (cut.cut || response.truncated) out.push(`${pad}${c.dim(`… body cut at ${formatBytes(Math.min(VERBOSE_BODY_BYTES, Buffer.byteLength(cut.text)))} of ${formatBytes(response.bodySize)}`)}`);
  out.push('');
  return out;
}


/** An SSE request's events, for the request line: `3 events, stopped at the time limit`. */
export function streamFacts(stream: NonNullable<RequestResult['stream']>): string {
  return `${stream.events} event${stream.events === 1 ? '' : 's'}, ${STOPPED_BY[stream.stoppedBy]}${stream.closedWith ? ` (${stream.closedWith})` : ''}`;
}

/** Why a request failed on its status alone (no error, no failed test), or undefined. */
export function statusFailure(r: RequestResult): string | undefined {
  if (r.passed || r.error || r.status === undefined || r.tests.some((t) => !t.passed && !t.skipped)) return undefined;
  return statusReason(r);
}
