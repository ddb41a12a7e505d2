/**
 * Keeps secret values out of what Ferry writes about a run: reports (the URL sent, errors, test
 * names and messages, scripts' console lines), warnings and history.
 */
import type { HistoryEntry } from '../appdata/index.js';

/**
 * The parts of a send's result that can hold a secret value. Declared here, not imported from
 * runner/ (which sits above this module): the runner's `RequestResult` has this shape.
 */
export interface MaskableResult {
  url: string;
  error?: string;
  skipped?: string;
  tests: Array<{ name: string; message?: string }>;
  console: string[];
  /** A response kept for `--verbose` or `--report-bodies`: a server may echo a secret. */
  response?: { headers: Array<[string, string]>; body: string | null };
}

/** What a secret value is replaced with. */
export const SECRET_MASK = '***';

export class SecretMask {
  private readonly values = new Set<string>();
  /** Every text form to replace, longest first (so a secret inside another is not cut in two); rebuilt on change. */
  private forms: string[] | undefined;

  /** Remembers a secret value (for the rest of the run, even once unset: earlier results may hold it). */
  add(value: string): void {
    if (value === '' || this.values.has(value)) return;
    this.values.add(value);
    this.forms = undefined;
  }

  get size(): number {
    return this.values.size;
  }

  /** The text with every known secret value, as written or as encoded into a URL, replaced. */
  text(text: string): string {
    if (this.values.size === 0 || text === '') return text;
    this.forms ??= [...new Set([...this.values].flatMap(encodedForms))].filter((f) => f !== '').sort((a, b) => b.length - a.length);
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(SECRET_MASK);
    return out;
  }

  /** Masks a send's result in place, before reporters see it. */
  result(result: MaskableResult): void {
    if (this.values.size === 0) return;
    result.url = this.text(result.url);
    if (result.error !== undefined) result.error = this.text(result.error);
    if (result.skipped !== undefined) result.skipped = this.text(result.skipped);
    for (const test of result.tests) {
      // A test's name is the script's text too: `pm.test('token ' + token, …)` names it with the value.
      test.name = this.text(test.name);
      if (test.message !== undefined) test.message = this.text(test.message);
    }
    // Console lines land in the JSON report and CI logs: a debugging `console.log(token)` must not.
    result.console = result.console.map((line) => this.text(line));
    if (result.response) {
      result.response.headers = result.response.headers.map(([name, value]) => [name, this.text(value)]);
      if (result.response.body !== null) result.response.body = this.text(result.response.body);
    }
  }

  history(entry: HistoryEntry): HistoryEntry {
    if (this.values.size === 0) return entry;
    return { ...entry, url: this.text(entry.url), ...(entry.error !== undefined ? { error: this.text(entry.error) } : {}) };
  }
}

/**
 * The value as written, in lower case (the URL parser lowers a host: `http://{{key}}.example/`),
 * and as `encodeURIComponent`, form encoding and the URL parser (query, path) write it.
 */
function encodedForms(value: string): string[] {
  const forms = [value, value.toLowerCase(), new URLSearchParams({ v: value }).toString().slice(2)];
  try {
    forms.push(encodeURIComponent(value));
    // The URL parser's path percent-encode set (WHATWG URL): what a value filled into a path becomes.
    forms.push(value.replace(/[\u{0}-\u{20}"#<>?`{}\u{7f}-\u{10ffff}]/gu, (c) => encodeURIComponent(c)));
  } catch {
    // A lone surrogate cannot be percent-encoded: the other forms stand.
  }
  const query = new URL('http://h/');
  query.search = value; // the whole value, encoded as the parser encodes a query
  forms.push(query.search.slice(1));
  forms.push(...jsonForms(value));
  return forms;
}

/**
 * The value inside a JSON string as servers that echo it write it: quotes and backslashes
 * escaped (every encoder), non-ASCII as `\u00f6` (Python's json.dumps, in either case of hex),
 * `/` as `\/` (PHP's json_encode), `<`, `>` and `&` as `\u003c`… (Go's encoding/json).
 */
function jsonForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const unicode = (pattern: RegExp, upper: boolean) => (text: string) =>
    text.replace(pattern, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`);
  const ascii = unicode(/[\u0080-\uffff]/g, false)(json);
  return [
    json,
    json.replaceAll('/', '\\/'),
    ascii,
    ascii.replaceAll('/', '\\/'),
    unicode(/[\u0080-\uffff]/g, true)(json),
    unicode(/[<>&]/g, false)(json),
  ];
}
