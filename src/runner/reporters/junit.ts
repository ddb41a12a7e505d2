/**
 * The JUnit XML report CI systems read: a testsuite per folder, a testcase per test (and one per
 * request for its status when it has no tests), failures and errors with their messages,
 * measured times, and every iteration (test names carry the iteration when there are several).
 */
import os from 'node:os';
import type { Reporter, RequestResult, RunEvent } from '../events.js';
import { statusReason } from '../response.js';
import { SpoolFolder, type Spool } from '../report-spool.js';
import { shownName } from '../../support/shown-name.js';

/** XML 1.0 text: escapes markup and drops characters XML cannot hold. */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;');
}

/**
 * A suite's or case's name (an attribute): control characters and bidi overrides escaped (`\u202e`),
 * as the HTML report and the app show names. CI systems show these names in web pages, where an
 * override reorders the text (`\u202Elmay.exe` reads as `exe.yaml`), so one test could pass for
 * another. Messages and errors keep their text as it came.
 */
const nameXml = (name: string) => xmlEscape(shownName(name));

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Case {
  name: string;
  classname: string;
  timeMs: number;
  failure?: { message: string; type: string };
  error?: { message: string; type: string };
  skipped?: string;
}

function casesFor(r: RequestResult, iterations: number): Case[] {
  const suffix = iterations > 1 ? ` [iteration ${r.iteration + 1}]` : '';
  const classname = r.path.replace(/\.yaml$/i, '').replace(/\//g, '.');
  const cases: Case[] = [];
  // Test case names keep `status text` (a CI's history matches cases by name); the failure message has the kind's label.
  // A number that is Ferry's and not the protocol's (MCP's 1 for isError) is left out, as every other report leaves it out.
  const code = r.status === undefined || r.statusNoCode ? '' : String(r.status);
  const statusText = [code, r.statusText ?? ''].filter(Boolean).join(' ');
  if (r.skipped) {
    cases.push({ name: `${r.name}${suffix}`, classname, timeMs: 0, skipped: r.skipped });
    return cases;
  }
  if (r.error) {
    cases.push({ name: `${r.name}${suffix}`, classname, timeMs: r.durationMs, error: { message: r.error, type: r.status === undefined ? 'RequestError' : 'ScriptError' } });
  }
  for (const t of r.tests) {
    const c: Case = { name: `${r.name} - ${t.name}${suffix}`, classname, timeMs: r.durationMs };
    if (t.skipped) c.skipped = 'skipped by the script';
    else if (!t.passed) c.failure = { message: t.message || `${t.name} failed`, type: 'AssertionFailure' };
    cases.push(c);
  }
  const ownTests = r.tests.filter((t) => !t.skipped);
  if (ownTests.length === 0 && !r.error) {
    const c: Case = { name: `${r.name} - status ${statusText || 'none'}${suffix}`, classname, timeMs: r.durationMs };
    if (!r.passed) c.failure = { message: statusReason(r), type: 'StatusFailure' };
    cases.push(c);
  }
  return cases;
}

/** One testcase element, indented as it sits in its suite. */
function caseXml(c: Case): string {
  const open = `    <testcase name="${nameXml(c.name)}" classname="${nameXml(c.classname)}" time="${seconds(c.timeMs)}"`;
  if (!c.failure && !c.error && !c.skipped) return `${open}/>\n`;
  const lines = [`${open}>`];
  if (c.skipped) lines.push(`      <skipped message="${xmlEscape(c.skipped)}"/>`);
  if (c.error) lines.push(`      <error message="${xmlEscape(c.error.message)}" type="${c.error.type}">${xmlEscape(c.error.message)}</error>`);
  if (c.failure) lines.push(`      <failure message="${xmlEscape(c.failure.message)}" type="${c.failure.type}">${xmlEscape(c.failure.message)}</failure>`);
  lines.push('    </testcase>');
  return `${lines.join('\n')}\n`;
}

/** A suite's counts, kept as its cases arrive; the cases themselves are spooled. */
interface Suite {
  name: string;
  timeMs: number;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  cases: Spool;
}

/**
 * Streams the report: each result's testcases are spooled under their folder's suite as they
 * arrive, with only the suite's counts kept in memory; when the run ends the suites are written
 * out in the order they first appeared, each with its counts and then its cases.
 */
export class JunitReporter implements Reporter {
  private start: Extract<RunEvent, { type: 'start' }> | undefined;
  private end: Extract<RunEvent, { type: 'end' }> | undefined;
  private iterations = 1;
  private readonly spools = new SpoolFolder();
  private readonly suites = new Map<string, Suite>();

  constructor(private readonly write: (text: string) => Promise<void> | void) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'start') {
      this.start = event;
      this.iterations = event.iterations;
    }
    if (event.type === 'request') this.add(event.result);
    if (event.type === 'end') this.end = event;
  }

  /**
   * A run stopped by Ctrl-C or SIGTERM (a CI job cancelled or timed out) ran only part of what it
   * was asked to: said as an error testcase of a suite of its own, where CI shows errors, since
   * the report's other cases may all have passed while the run exits 1.
   */
  private stoppedCase(): string | undefined {
    if (!this.end?.interrupted) return undefined;
    const by = this.end.stoppedBy ?? 'Ctrl-C';
    const message = `Stopped by ${by}: the request in flight was cancelled, and the ones after it were not run; this report is partial.`;
    return caseXml({ name: `run stopped by ${by}`, classname: 'ferry', timeMs: 0, error: { message, type: 'Interrupted' } });
  }

  private add(r: RequestResult): void {
    let suite = this.suites.get(r.folder);
    if (!suite) {
      const name = r.folderNames.length ? r.folderNames.join(' / ') : this.start?.workspace || 'requests';
      this.suites.set(r.folder, (suite = { name, timeMs: 0, tests: 0, failures: 0, errors: 0, skipped: 0, cases: this.spools.spool() }));
    }
    suite.timeMs += r.durationMs;
    for (const c of casesFor(r, this.iterations)) {
      suite.tests++;
      if (c.failure) suite.failures++;
      if (c.error) suite.errors++;
      if (c.skipped) suite.skipped++;
      suite.cases.append(caseXml(c));
    }
  }

  async finish(): Promise<void> {
    if (!this.end) return;
    try {
      const workspaceName = this.start?.workspace ?? '';
      // Without a timezone: the format both common JUnit schemas accept.
      const timestamp = (this.start?.startedAt || new Date().toISOString()).replace(/\.\d+Z$|Z$/, '');
      const hostname = xmlEscape(os.hostname() || 'localhost');
      const all = [...this.suites.values()];
      const stopped = this.stoppedCase();
      const total = (pick: (s: Suite) => number) => all.reduce((n, s) => n + pick(s), 0);
      // The stopped run's own testcase: one test, one error.
      const extra = stopped ? 1 : 0;
      await this.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          `<testsuites name="${nameXml(workspaceName || 'ferry run')}" tests="${total((s) => s.tests) + extra}" failures="${total((s) => s.failures)}" errors="${total((s) => s.errors) + extra}" time="${seconds(this.end.summary.durationMs)}">\n`,
      );
      let id = 0;
      for (const suite of all) {
        await this.write(
          `  <testsuite name="${nameXml(suite.name)}" package="${nameXml(suite.name)}" id="${id++}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" skipped="${suite.skipped}" time="${seconds(suite.timeMs)}" timestamp="${timestamp}" hostname="${hostname}">\n    <properties/>\n`,
        );
        for await (const piece of suite.cases.read()) await this.write(piece);
        await this.write('    <system-out/>\n    <system-err/>\n  </testsuite>\n');
      }
      if (stopped) {
        await this.write(
          `  <testsuite name="ferry run" package="ferry run" id="${id}" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${timestamp}" hostname="${hostname}">\n    <properties/>\n${stopped}    <system-out/>\n    <system-err/>\n  </testsuite>\n`,
        );
      }
      await this.write('</testsuites>\n');
    } finally {
      await this.spools.remove();
    }
  }
}
