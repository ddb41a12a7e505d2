/** The answer: status, time, size; body pretty, raw or hex; headers; tests; console; timings. */
import { lazy, memo, Suspense, useEffect, useId, useMemo, useState } from 'react';
import type { SendResponse, StreamMessage } from '../shared/api.js';
import { statusShown } from '../../runner/response.js';
import { bytesOf } from './api.js';
import { bodyText, declaresText, HIGHLIGHT_BYTES, pretty, prettyView } from './body-text.js';
import { MessageText } from './MessageText.js';
import { RecordsTable } from './RecordsTable.js';
import { TabList, tabPanel } from './TabList.js';

const TABS = ['Body', 'Events', 'Details', 'Headers', 'Cookies', 'Tests', 'Console', 'Timings'] as const;
type Tab = (typeof TABS)[number];
type Mode = 'pretty' | 'raw' | 'hex' | 'preview';
/** Shown as text at most until Show all is asked for; the rest is there to save, not to render (a 100 MB body must not freeze the page). */
const SHOWN_BYTES = 512 * 1024;
// CodeMirror and the modes load with the first highlighted body, not with the page (as LazyCodeEditor.tsx).
const CodeView = lazy(() => import('./CodeView.js'));
/** Shown as hex at most (each byte takes four characters there), Show all or not. */
const HEX_BYTES = 64 * 1024;

function bytes(base64: string): Uint8Array {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * What a screen reader says when an answer comes (the answer's live region): its status, time
 * and size, its tests, its error; "Sending…" meanwhile.
 */
function spoken(answer: SendResponse | null, sending: boolean, error: string | null | undefined): string {
  if (sending) return 'Sending…';
  if (error) return `Not sent: ${error}`;
  if (!answer) return '';
  const { result } = answer;
  const failed = result.tests.filter((t) => !t.passed && !t.skipped).length;
  return [
    // As the status badge reads (an MCP error result is `isError`, not Ferry's 1).
    `Response: ${result.status !== undefined ? `${statusShown(result)}, ` : ''}${result.durationMs} ms`,
    result.size !== undefined ? `, ${humanSize(result.size)}` : '',
    result.tests.length ? `; ${result.tests.length - failed} of ${result.tests.length} tests passed` : '',
    result.error ? `; ${result.error}` : '',
  ].join('');
}

export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Bytes that are not text: shown as hex unless asked otherwise. A Content-Type that says text
 * is believed (its bytes that are not UTF-8 show as U+FFFD); another is looked at: a NUL, or not
 * UTF-8 in the first 8 KB (a cut character at the end is allowed).
 */
function looksBinary(data: Uint8Array, contentType: string): boolean {
  if (declaresText(contentType)) return false;
  const head = data.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: data.length > head.length });
    return false;
  } catch {
    return true;
  }
}

function hex(data: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.min(data.length, HEX_BYTES); i += 16) {
    const row = data.subarray(i, i + 16);
    const hexes = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${i.toString(16).padStart(8, '0')}  ${hexes.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

/** Text past this is drawn in blocks the browser lays out only when scrolled to (`content-visibility`): a whole 20 MB body stays scrollable. */
const BLOCK_CHARS = 64 * 1024;

/** Cuts text into blocks of about BLOCK_CHARS, at a line end when there is one near. */
function blocks(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + BLOCK_CHARS);
    if (end < text.length) {
      const line = text.lastIndexOf('\n', end);
      if (line > at + BLOCK_CHARS / 2) end = line + 1;
    }
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** The body as text; a long one in blocks drawn when in view, the same text to copy and select. */
function BodyText({ text }: { text: string }) {
  const parts = useMemo(() => (text.length > BLOCK_CHARS ? blocks(text) : null), [text]);
  return (
    <pre className="body" data-testid="response-body">
      {parts ? parts.map((part, i) => <span key={i} className="block">{part}</span>) : text}
    </pre>
  );
}

/**
 * The Pretty view: highlighted in its language (read-only CodeMirror: selectable, Ctrl+F searches
 * it, long lines wrap as in the plain view), plain text while CodeMirror loads, and plain text
 * when it has none (text/plain, or too long to highlight).
 */
function PrettyBody({ text, language }: { text: string; language: string | undefined }) {
  if (!language) return <BodyText text={text} />;
  return (
    <Suspense fallback={<BodyText text={text} />}>
      <CodeView code={text} lang={language} label="Response body" wrap className="response-code" testId="response-code" contentTestId="response-body" />
    </Suspense>
  );
}

/** The cookies an answer sets (`Set-Cookie`): name, value and attributes as the server sent them. */
function setCookies(headers: [string, string][]): Array<{ name: string; value: string; attributes: string }> {
  return headers.filter(([k]) => k.toLowerCase() === 'set-cookie').map(([, line]) => {
    const [pair = '', ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    return { name: (at < 0 ? pair : pair.slice(0, at)).trim(), value: at < 0 ? '' : pair.slice(at + 1).trim(), attributes: attributes.map((a) => a.trim()).filter(Boolean).join('; ') };
  });
}

/** One event, drawn again only when it changes (not for each event that comes while the stream is read). */
const EventRow = memo(function EventRow({ message: m }: { message: StreamMessage }) {
  const bytes = useMemo(() => (m.binary ? 0 : new TextEncoder().encode(m.text).length), [m]);
  return (
    <li className={m.direction}>
      <span className="muted">{m.timeMs.toFixed(0)} ms</span> {m.event && <b>{m.event}</b>}{' '}
      {m.binary ? <code>(binary, {m.text.length} base64 characters)</code> : <MessageText text={m.text} bytes={bytes} pretty />}
    </li>
  );
});

/** Stream messages (SSE events) in order: time since the stream opened, event name, data (JSON and XML pretty, as the live panel's). */
function MessageList({ messages }: { messages: StreamMessage[] }) {
  return (
    <ol className="messages" aria-label="Events">
      {messages.map((m, i) => <EventRow key={i} message={m} />)}
    </ol>
  );
}

export function ResponseViewer({ answer, sending, error, liveMessages = [] }: { answer: SendResponse | null; sending: boolean; error: string | null; liveMessages?: StreamMessage[] }) {
  const [chosenTab, setTab] = useState<Tab>('Body');
  const panel = useId();
  /** The view the user picked (kept across answers); until then each answer's own: an image's preview, binary's hex, else pretty. */
  const [picked, setMode] = useState<Mode | null>(null);
  /** The whole body, fetched when Show all is pressed (the page is given the first 2 MB of an answer). */
  const [whole, setWhole] = useState<{ answer: SendResponse; data: Uint8Array } | null>(null);
  const [wholeState, setWholeState] = useState<{ answer: SendResponse; loading: boolean; error?: string } | null>(null);
  const all = whole?.answer === answer ? whole : null;
  const given = useMemo(() => (answer?.response ? bytes(answer.response.bodyBase64) : new Uint8Array()), [answer]);
  const data = all?.data ?? given;
  const contentType = answer?.response?.contentType ?? '';
  const read = useMemo(() => bodyText(data, contentType, all ? Infinity : SHOWN_BYTES), [data, contentType, all]);
  const text = read.text;
  const bodySize = answer?.response?.bodySize ?? 0;
  const shownBytes = all ? data.length : Math.min(data.length, SHOWN_BYTES);
  // Indenting half a megabyte of XML takes a moment: once per answer, not once per render.
  const prettied = useMemo(() => prettyView(text, contentType, shownBytes >= bodySize), [text, contentType, shownBytes, bodySize]);
  const prettyText = prettied.text;
  // By its type (JSON or XML under text/plain when it parsed as that); none past HIGHLIGHT_BYTES (the Pretty view is then plain text drawn in blocks).
  const language = shownBytes <= HIGHLIGHT_BYTES ? prettied.language : undefined;
  /** The whole body: what the page holds when it was given all of it, else fetched from the app (which keeps the last sends' bodies). */
  const wholeBody = async (): Promise<Uint8Array> => {
    if (all) return all.data;
    if (!answer?.response?.truncated) return given;
    if (!answer.sendId) throw new Error('Only the first 2 MB of this answer is kept here: send the request again for the rest.');
    return bytesOf(`/api/send/body?id=${encodeURIComponent(answer.sendId)}`);
  };
  const showAll = () => {
    if (!answer) return;
    setWholeState({ answer, loading: true });
    wholeBody().then(
      (body) => {
        setWhole({ answer, data: body });
        setWholeState(null);
      },
      (e: Error) => setWholeState({ answer, loading: false, error: e.message }),
    );
  };
  const [copied, setCopied] = useState<{ answer: SendResponse; said: string } | null>(null);
  /** Copies the whole body as the view shows it (pretty or raw), not only the part drawn. */
  const copy = (view: 'pretty' | 'raw') => {
    if (!answer) return;
    const say = (said: string) => {
      setCopied({ answer, said });
      window.setTimeout(() => setCopied((now) => (now?.said === said ? null : now)), 2000);
    };
    // A page holding the whole body (Show all, or an answer under the shown size) copies the text it
    // already read and indented: 20 MB of JSON indented again held the page for seconds.
    const held = shownBytes >= bodySize ? (view === 'pretty' ? prettyText : text) : undefined;
    const copied = held !== undefined ? Promise.resolve(held) : wholeBody().then((body) => {
      const whole = bodyText(body, contentType).text;
      return view === 'pretty' ? pretty(whole, contentType, true) : whole;
    });
    copied
      .then((copy) => navigator.clipboard.writeText(copy))
      .then(() => say('Copied'), (e: Error) => say(`Not copied: ${e.message}`));
  };
  const fetching = wholeState?.answer === answer ? wholeState : null;
  const preview = useMemo(() => {
    const type = answer?.response?.contentType ?? '';
    if (/^image\//i.test(type) || /^text\/html/i.test(type)) return URL.createObjectURL(new Blob([data as BlobPart], { type }));
    return undefined;
  }, [data, answer]);
  // A whole body fetched for the previous answer is let go with it (20 MB held for nothing otherwise).
  useEffect(() => setWhole((kept) => (kept && kept.answer !== answer ? null : kept)), [answer]);
  // The previous answer's preview is let go (a 20 MB body kept alive by its URL otherwise).
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  // Once per answer: the page renders on every keystroke in the editor.
  const binary = useMemo(() => looksBinary(given, contentType), [given, contentType]);
  const image = Boolean(preview) && /^image\//i.test(contentType);
  const own: Mode = image ? 'preview' : binary ? 'hex' : 'pretty';
  // A view picked holds for the next answers, but text views (pretty, raw) are not forced on an image or bytes: they would show garbage.
  const mode: Mode = picked && (picked !== 'preview' || preview) && !((picked === 'pretty' || picked === 'raw') && own !== 'pretty') ? picked : own;

  // One live region, the section's first child whatever it shows, so the same element is kept from "Sending…" to the answer and a screen reader reads each change.
  const live = <p className="sr-only" role="status">{spoken(answer, sending, error)}</p>;
  if (sending) {
    return (
      <section className={`response ${liveMessages.length ? '' : 'empty'}`} aria-label="Response">
        {live}
        <p>Sending…{liveMessages.length > 0 && <> {liveMessages.length} event(s) so far</>}</p>
        {liveMessages.length > 0 && <MessageList messages={liveMessages} />}
      </section>
    );
  }
  if (error) return <section className="response empty" aria-label="Response">{live}<p className="error">{error}</p></section>;
  if (!answer) return <section className="response empty" aria-label="Response">{live}<p className="muted">Send the request (Ctrl+Enter) to see the response.</p></section>;
  const { result, response } = answer;
  /** Bytes the view picked draws: hex the first 64 KB, text the first 512 KB until Show all, a preview what the page holds. */
  const shown = mode === 'hex' ? Math.min(data.length, HEX_BYTES) : mode === 'preview' ? data.length : shownBytes;
  // The Events tab exists for stream answers only; another answer shows its body.
  const tab = (chosenTab === 'Events' && !result.messages) || (chosenTab === 'Details' && !result.detail) ? 'Body' : chosenTab;
  const tests = result.tests;
  const cookies = response ? setCookies(response.headers) : [];
  const redirects = response?.redirects ?? [];
  const failed = tests.filter((t) => !t.passed && !t.skipped).length;
  // The kind's verdict (gRPC fails on any status but OK, DNS on any rcode but NOERROR); a redirect not followed is a warning.
  const statusClass = result.status === undefined || !(result.statusOk ?? result.status < 400) ? 'bad' : result.status >= 300 && result.status < 400 ? 'warn' : 'ok';
  return (
    <section className="response" aria-label="Response">
      {live}
      <div className="status-row">
        {result.status !== undefined && <span className={`status ${statusClass}`} data-testid="status">{statusShown(result)}</span>}
        <span data-testid="time">{result.durationMs} ms</span>
        {result.size !== undefined && <span data-testid="size">{humanSize(result.size)}</span>}
        {redirects.length > 0 && (
          <button className="link" data-testid="redirects" title={`Followed: ${redirects.map((r) => `${r.status} ${r.url}`).join(' → ')} → ${response?.finalUrl ?? ''}`} onClick={() => setTab('Timings')}>
            {redirects.length} redirect{redirects.length === 1 ? '' : 's'}
          </button>
        )}
        {tests.length > 0 && <span className={failed ? 'bad' : 'ok'}>{tests.length - failed}/{tests.length} tests passed</span>}
      </div>
      {result.error && <pre className="error" data-testid="send-error">{result.error}</pre>}
      <TabList
        label="Parts of the answer"
        tabs={TABS.filter((t) => (t !== 'Events' || result.messages) && (t !== 'Details' || result.detail))}
        current={tab}
        onPick={setTab}
        panel={panel}
        badge={(t) => <>{t === 'Tests' && tests.length ? <small> {tests.length}</small> : null}{t === 'Events' && result.messages ? <small> {result.messages.length}</small> : null}{t === 'Headers' && response ? <small> {response.headers.length}</small> : null}{t === 'Cookies' && cookies.length ? <small> {cookies.length}</small> : null}</>}
      />
      <div className="tab-body" {...tabPanel(panel, tab)}>
        {tab === 'Body' && response && response.bodySize === 0 && (
          <p className="muted" data-testid="no-body">No body: this answer has none{result.status === 204 || result.status === 304 ? ` (${result.status} never carries one)` : ''}. Its headers are in Headers.</p>
        )}
        {tab === 'Body' && response && response.bodySize > 0 && (
          <>
            <div className="modes">
              {(['pretty', 'raw', 'hex', ...(preview ? ['preview'] : [])] as Mode[]).map((m) => (
                <button key={m} className={mode === m ? 'on' : ''} aria-pressed={mode === m} onClick={() => setMode(m)}>{m}</button>
              ))}
              {shown < response.bodySize && (
                <span className="muted" data-testid="body-shown">
                  Showing the first {humanSize(shown)} of {humanSize(response.bodySize)}{mode === 'hex' ? ' as hex' : ''}.{' '}
                  {mode !== 'hex' && (answer.sendId || !response.truncated) && !fetching?.loading && <button onClick={showAll} title="Fetch and show the whole body: a large one takes a while to draw">Show all</button>}
                  {fetching?.loading && 'Fetching the whole body…'}
                  {fetching?.error && <span className="error" role="alert"> {fetching.error}</span>}
                </span>
              )}
              {(mode === 'pretty' || mode === 'raw') && read.lossy && <span className="muted" data-testid="body-lossy">Some bytes are not valid {read.charset.toUpperCase()}: shown as �; hex shows them as sent.</span>}
              {answer.sendId && <a className="button-link" href={`/api/send/body?id=${encodeURIComponent(answer.sendId)}`} download>Save to file</a>}
              {(mode === 'pretty' || mode === 'raw') && (
                <button onClick={() => copy(mode)} title="Copy the whole body as this view shows it">{copied?.answer === answer ? copied.said : 'Copy'}</button>
              )}
            </div>
            {mode === 'pretty' && <PrettyBody text={prettyText} language={language} />}
            {mode === 'raw' && <BodyText text={text} />}
            {mode === 'hex' && <pre className="body hex">{hex(data)}</pre>}
            {mode === 'preview' && preview && (/^image\//.test(response.contentType)
              ? <img className="preview" src={preview} alt="Response body" />
              // No scripts, no same-origin: an HTML answer cannot reach the app's API.
              : <iframe className="preview" sandbox="" src={preview} title="HTML preview" />)}
          </>
        )}
        {tab === 'Events' && result.messages && <MessageList messages={result.messages} />}
        {/* The kind's own facts (DNS records and flags, gRPC status and trailers, MCP server): records as tables, all of it as JSON. */}
        {tab === 'Details' && result.detail && (
          <>
            <RecordsTable detail={result.detail} />
            <pre className="body" data-testid="response-detail">{JSON.stringify(result.detail, null, 2)}</pre>
          </>
        )}
        {tab === 'Headers' && response && (
          <table className="plain" aria-label="Response headers">
            <tbody>{response.headers.map(([k, v], i) => <tr key={i}><th>{k}</th><td>{v}</td></tr>)}</tbody>
          </table>
        )}
        {tab === 'Cookies' && (cookies.length === 0 ? <p className="muted">This answer sets no cookies. The Cookies button shows the jar the sends share.</p> : (
          <table className="plain" aria-label="Response cookies">
            <thead><tr><th>Name</th><th>Value</th><th>Attributes</th></tr></thead>
            <tbody>{cookies.map((c, i) => <tr key={i}><td>{c.name}</td><td className="cookie-value" data-testid="cookie-value">{c.value}</td><td>{c.attributes}</td></tr>)}</tbody>
          </table>
        ))}
        {tab === 'Tests' && (
          <ul className="tests" aria-label="Test results">
            {tests.length === 0 && <li className="muted">No tests. Write them in the post-response script: pm.test('name', () =&gt; …).</li>}
            {tests.map((t, i) => (
              <li key={i} className={t.skipped ? 'skip' : t.passed ? 'pass' : 'fail'}>
                <b>{t.skipped ? 'SKIP' : t.passed ? 'PASS' : 'FAIL'}</b> {t.name}
                {t.message && <pre>{t.message}</pre>}
              </li>
            ))}
          </ul>
        )}
        {tab === 'Console' && <pre className="body" aria-label="Console">{result.console.join('\n') || '(no console output)'}</pre>}
        {tab === 'Timings' && (
          <table className="plain" aria-label="Timings">
            <tbody>
              {result.timings && Object.entries({ DNS: result.timings.dnsMs, Connect: result.timings.connectMs, TLS: result.timings.tlsMs, 'First byte': result.timings.firstByteMs, Total: result.timings.totalMs })
                .map(([k, v]) => <tr key={k}><th>{k}</th><td>{Math.round(v * 10) / 10} ms</td></tr>)}
              {result.httpVersion && <tr><th>HTTP version</th><td>{result.httpVersion}</td></tr>}
              {result.remoteAddress && <tr><th>Remote address</th><td>{result.remoteAddress}</td></tr>}
              <tr><th>URL</th><td>{result.url}</td></tr>
            </tbody>
          </table>
        )}
        {tab === 'Timings' && redirects.length > 0 && (
          <table className="plain" aria-label="Redirects">
            <caption>Redirects followed, in order</caption>
            <tbody>
              {redirects.map((r, i) => <tr key={i}><th>{r.status}</th><td>{r.url}</td></tr>)}
              <tr><th>{result.status}</th><td>{response?.finalUrl}</td></tr>
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
