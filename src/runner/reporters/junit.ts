/**
 * The JUnit XML report CI systems read: a testsuite per folder, a testcase per test (and one per
 * request for its status when it has no tests), failures and errors with their messages,
 * measured times, and every iteration (test names carry the iteration when there are several).
 */
import os from 'node:os';
import type { Reporter, RequestResult, RunEvent } from '../events.js';

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

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Case {
  name: string;
  classname: string;
  timeMs: number;
  failure?: { message: string; type: string };
  error?: { message: string; type: string };
  skipped?: string;
}

export function junitXml(workspaceName: string, startedAt: string, end: Extract<RunEvent, { type: 'end' }>): string {
  const iterations = end.summary.iterations;
  const suites = new Map<string, { name: string; timeMs: number; cases: Case[] }>();
  for (const r of end.results) {
    const key = r.folder;
    let suite = suites.get(key);
    if (!suite) suites.set(key, (suite = { name: r.folderNames.length ? r.folderNames.join(' / ') : workspaceName || 'requests', timeMs: 0, cases: [] }));
    suite.timeMs += r.durationMs;
    suite.cases.push(...casesFor(r, iterations));
  }
  // Without a timezone: the format both common JUnit schemas accept.
  const timestamp = (startedAt || new Date().toISOString()).replace(/\.\d+Z$|Z$/, '');
  const hostname = xmlEscape(os.hostname() || 'localhost');
  const all = [...suites.values()];
  const count = (pick: (c: Case) => boolean) => all.reduce((n, s) => n + s.cases.filter(pick).length, 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  lines.push(
    `<testsuites name="${xmlEscape(workspaceName || 'ferry run')}" tests="${count(() => true)}" failures="${count((c) => !!c.failure)}" errors="${count((c) => !!c.error)}" time="${seconds(end.summary.durationMs)}">`,
  );
  all.forEach((suite, id) => {
    const failures = suite.cases.filter((c) => c.failure).length;
    const errors = suite.cases.filter((c) => c.error).length;
    const skipped = suite.cases.filter((c) => c.skipped).length;
    lines.push(
      `  <testsuite name="${xmlEscape(suite.name)}" package="${xmlEscape(suite.name)}" id="${id}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(suite.timeMs)}" timestamp="${timestamp}" hostname="${hostname}">`,
    );
    lines.push('    <properties/>');
    for (const c of suite.cases) {
      const open = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}" time="${seconds(c.timeMs)}"`;
      if (!c.failure && !c.error && !c.skipped) {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      if (c.skipped) lines.push(`      <skipped message="${xmlEscape(c.skipped)}"/>`);
      if (c.error) lines.push(`      <error message="${xmlEscape(c.error.message)}" type="${c.error.type}">${xmlEscape(c.error.message)}</error>`);
      if (c.failure) lines.push(`      <failure message="${xmlEscape(c.failure.message)}" type="${c.failure.type}">${xmlEscape(c.failure.message)}</failure>`);
      lines.push('    </testcase>');
    }
    lines.push('    <system-out/>', '    <system-err/>', '  </testsuite>');
  });
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function casesFor(r: RequestResult, iterations: number): Case[] {
  const suffix = iterations > 1 ? ` [iteration ${r.iteration + 1}]` : '';
  const classname = r.path.replace(/\.yaml$/i, '').replace(/\//g, '.');
  const cases: Case[] = [];
  const statusText = r.status === undefined ? '' : `${r.status}${r.statusText ? ` ${r.statusText}` : ''}`;
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
    if (!r.passed) c.failure = { message: `status ${statusText} (${r.statusRule ?? 'a request without tests fails at 400 and above'})`, type: 'StatusFailure' };
    cases.push(c);
  }
  return cases;
}

export class JunitReporter implements Reporter {
  private start: Extract<RunEvent, { type: 'start' }> | undefined;
  private xml: string | undefined;

  constructor(private readonly write: (text: string) => Promise<void> | void) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'start') this.start = event;
    if (event.type === 'end') this.xml = junitXml(this.start?.workspace ?? '', this.start?.startedAt ?? '', event);
  }

  async finish(): Promise<void> {
    if (this.xml) await this.write(this.xml);
  }
}
