/** Sending (with cancel) and collection runs, through the session: the same pipeline as `ferry run`. */
import { randomUUID } from 'node:crypto';
import { sendResultKey } from '../../appdata/index.js';
import { formatFieldPath, parseResource, type Auth } from '../../model/index.js';
import type { ProtocolResult } from '../../protocols/index.js';
import { PrepareError } from '../../request/index.js';
import type { SendTarget } from '../../session/index.js';
import { createReporter, RunError, SelectError, selectRequests, type ReporterName, type RunEvent } from '../../runner/index.js';
import { dataRows, DataFileError, type DataRow } from '../../variables/index.js';
import { BODY_LIMIT, type SendResponse } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { ApiError, Download, field, optionalField, type Routes } from './router.js';
import { requestFrom } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

function viewOf(response: ProtocolResult): NonNullable<SendResponse['response']> {
  const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  const contentType = response.bodyType ?? response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return {
    headers: response.headers,
    bodyBase64: body.subarray(0, BODY_LIMIT).toString('base64'),
    bodySize: body.length,
    truncated: body.length > BODY_LIMIT,
    contentType,
    ...(response.redirects ? { redirects: response.redirects, finalUrl: response.url } : {}),
  };
}

/** A run's or send's own refusals (an unknown path, a bad environment) are the user's to fix: 400. */
function refusal(error: unknown): never {
  if (error instanceof RunError || error instanceof SelectError) throw new ApiError(400, error.message);
  throw error;
}

/** The file extension Save to file gives a body of this media type (as Postman and Insomnia name it), `.body` for one it does not know. */
const EXTENSIONS: Array<[RegExp, string]> = [
  // SVG before XML: `image/svg+xml` ends in +xml.
  [/^image\/svg\+xml$/, 'svg'], [/[/+]json$/, 'json'], [/[/+]xml$/, 'xml'], [/^text\/html$/, 'html'], [/^text\/plain$/, 'txt'], [/^text\/csv$/, 'csv'],
  [/^(text|application)\/(x-)?javascript$/, 'js'], [/^text\/css$/, 'css'], [/^(text|application)\/(x-)?ya?ml$/, 'yaml'], [/^text\/markdown$/, 'md'],
  [/^image\/png$/, 'png'], [/^image\/jpe?g$/, 'jpg'], [/^image\/gif$/, 'gif'], [/^image\/webp$/, 'webp'],
  [/^application\/pdf$/, 'pdf'], [/^application\/zip$/, 'zip'], [/^application\/gzip$/, 'gz'], [/^application\/octet-stream$/, 'bin'],
];

function extensionFor(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return EXTENSIONS.find(([pattern]) => pattern.test(type))?.[1] ?? 'body';
}

/** Full bodies of the last sends, for Save to file (the page gets at most `BODY_LIMIT` of each). */
const KEPT_BODIES = 3;

/** Finished runs kept for export (the runner's Export buttons), the newest few. */
const KEPT_RUNS = 10;


/** The run's data file as the page read it (`{ name, text }`): rows, or a 400 saying what is wrong. */
function runData(body: unknown): DataRow[] | undefined {
  const data = (body as { data?: unknown }).data;
  if (data === undefined || data === null) return undefined;
  const name = field(data, 'name');
  const text = field(data, 'text');
  try {
    const rows = dataRows(text, name);
    if (rows.length === 0) throw new ApiError(400, `data file ${name} has no rows: give one row of variables per iteration.`);
    return rows;
  } catch (error) {
    if (error instanceof DataFileError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** What a send (or Get token) of the request editor is for: the saved file at `path`, or the editor's `request` placed there. */
function sendTarget(body: unknown): SendTarget {
  const requestPath = field(body, 'path');
  return (body as { request?: unknown }).request === undefined ? requestPath : { request: requestFrom(body), path: requestPath };
}

/** The `auth` a settings dialog holds, checked as the settings file's field is (a 400 naming what is wrong). */
function settingsAuth(body: unknown): Auth {
  const parsed = parseResource('folder', { auth: (body as { auth?: unknown }).auth });
  if (!parsed.ok) throw new ApiError(400, `The auth is not valid: ${formatFieldPath(parsed.problems[0]!.path)}: ${parsed.problems[0]!.message}`);
  return parsed.value.auth as Auth;
}

export function sendRoutes(state: WorkspaceState, live: LiveChannel): Routes {
  const inFlight = new Map<string, AbortController>();
  /** The reports of the last finished runs, as `ferry run --reporter json|junit` writes them. */
  // A promise: the page may ask as soon as the `end` event arrives, before the reports are whole.
  const finished = new Map<string, Promise<Record<'json' | 'junit', string> | undefined>>();
  const bodies = new Map<string, { body: Uint8Array; name: string; extension: string }>();
  return {
    /** Sends what the editor holds (`request`, placed at `path`), or the saved file when `request` is absent. */
    'POST /api/send': async ({ body, signal }) => {
      const id = optionalField(body, 'id') ?? randomUUID();
      const target = sendTarget(body);
      const controller = new AbortController();
      inFlight.set(id, controller);
      const stop = () => controller.abort();
      signal.addEventListener('abort', stop);
      try {
        const { result, response } = await state
          .withSession((session) => session.exchange(target, { signal: controller.signal, onMessage: (message) => live.publish({ type: 'message', sendId: id, message }), onAuthorizeUrl: (url) => live.publish({ type: 'authorize', id, url }) }))
          .catch(refusal);
        const answer: SendResponse = { result, sendId: id, ...(response ? { response: viewOf(response) } : {}) };
        if (response) {
          bodies.set(id, { body: response.body, name: result.name, extension: extensionFor(answer.response!.contentType) });
          for (const old of [...bodies.keys()].slice(0, Math.max(0, bodies.size - KEPT_BODIES))) bodies.delete(old);
        }
        // Kept for the history dialog: a past send's answer can be shown again (appdata/send-results.ts).
        await state.data.results.save(sendResultKey(result.startedAt, result.path), { ...answer, sendId: undefined }).catch(() => undefined);
        return answer;
      } finally {
        signal.removeEventListener('abort', stop);
        inFlight.delete(id);
      }
    },

    /**
     * "Get token" (OAuth 2.0): the token a send of what the editor holds would use, fetched and
     * cached as a send does, the request itself not sent. The answer has the token masked. The
     * authorization code grant's sign-in page goes to the page as an `authorize` event with the
     * body's `id`; the page stops waiting by closing the call.
     */
    'POST /api/oauth2/token': async ({ body, signal }) => {
      const id = optionalField(body, 'id') ?? randomUUID();
      const options = { signal, onAuthorizeUrl: (url: string) => live.publish({ type: 'authorize', id, url }) };
      // `folder` (and `auth`): the settings dialog of that folder ('' = the workspace's), else the request editor's.
      const folder = optionalField(body, 'folder');
      const auth = folder === undefined ? undefined : settingsAuth(body);
      const target = folder === undefined ? sendTarget(body) : undefined;
      const token = await state.withSession((session) => (target === undefined ? session.fetchSettingsToken(folder!, auth!, options) : session.fetchToken(target, options))).catch((error: unknown) => {
        if (error instanceof PrepareError) throw new ApiError(400, error.message);
        return refusal(error);
      });
      return { ...token, ...(token.expiresAt !== undefined ? { expiresInSeconds: Math.round((token.expiresAt - Date.now()) / 1000) } : {}) };
    },

    /** A recent send's whole body as a file (Save to file: a 100 MB answer is shown in part, saved whole). */
    'GET /api/send/body': async ({ query }) => {
      const kept = bodies.get(query.get('id') ?? '');
      if (!kept) throw new ApiError(404, `This answer's body is no longer kept (the app keeps the last ${KEPT_BODIES}): send the request again.`);
      return new Download(kept.body, `${kept.name || 'response'}.${kept.extension}`);
    },

    /** The session's cookie jar (kept on this computer, 5.2): what the next sends carry. */
    'GET /api/cookies': async () => state.withSession(async (session) => (await session.cookieJar()).list()),

    /** Deletes one cookie (`domain`, `path`, `name`), or all when `all` is true; the jar is saved at once. */
    'POST /api/cookies/delete': async ({ body }) => {
      const all = (body as { all?: unknown }).all === true;
      const which = all ? undefined : { domain: field(body, 'domain'), path: field(body, 'path'), name: field(body, 'name') };
      return state.withSession(async (session) => {
        const jar = await session.cookieJar();
        if (!jar.remove(which) && which) throw new ApiError(404, `No cookie "${which.name}" for ${which.domain}${which.path}.`);
        return jar.list();
      });
    },

    'POST /api/cancel': async ({ body }) => {
      const id = field(body, 'id');
      inFlight.get(id)?.abort();
      return { cancelled: inFlight.has(id) };
    },

    /** Starts a run; its events (progress, each result, the summary) arrive on the live channel. */
    'POST /api/run': async ({ body }) => {
      const runId = optionalField(body, 'runId') ?? randomUUID();
      const paths = (body as { paths?: unknown }).paths;
      if (paths !== undefined && (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string'))) throw new ApiError(400, '"paths" must be a list of request or folder paths.');
      const iterations = (body as { iterations?: unknown }).iterations;
      if (iterations !== undefined && (typeof iterations !== 'number' || !Number.isInteger(iterations) || iterations < 1)) {
        throw new ApiError(400, '"iterations" must be a whole number of 1 or more.');
      }
      const data = runData(body);
      // Paths as the tree gives them (`Users/` a folder, `Users.yaml` a request), never a name found at any depth: refused before anything runs.
      try {
        selectRequests(state.workspace.tree, (paths as string[] | undefined) ?? [], { byName: false });
      } catch (error) {
        if (error instanceof SelectError) throw new ApiError(400, error.message);
        throw error;
      }
      const controller = new AbortController();
      inFlight.set(runId, controller);
      const reporter = { onEvent: (event: RunEvent) => live.publish({ type: 'run', runId, event }) };
      // The run keeps no results (memory stays flat); the two report texts are made as it goes.
      const reports = { json: '', junit: '' };
      const reportOf = (name: ReporterName & keyof typeof reports) => createReporter(name, { write: (text) => void (reports[name] += text), color: false });
      const done = state
        .withSession((session) => session.run((paths as string[] | undefined) ?? [], { byName: false, iterations: iterations as number | undefined, data, reporters: [reporter, reportOf('json'), reportOf('junit')], signal: controller.signal, keepResults: false, onAuthorizeUrl: (url) => live.publish({ type: 'authorize', id: runId, url }) }))
        .then(() => reports)
        .catch((error: unknown) => {
          reporter.onEvent({ type: 'warning', message: `The run stopped: ${(error as Error).message}` });
          return undefined;
        })
        .finally(() => inFlight.delete(runId));
      finished.set(runId, done);
      for (const old of [...finished.keys()].slice(0, Math.max(0, finished.size - KEPT_RUNS))) finished.delete(old);
      return { runId };
    },

    /** A finished run's report, as `ferry run --reporter json|junit` writes it. */
    'GET /api/run/report': async ({ query }) => {
      const run = await finished.get(query.get('runId') ?? '');
      if (!run) throw new ApiError(404, 'No finished run with this id (the app keeps the last 10): run it again.');
      const format = query.get('format') ?? 'json';
      if (format === 'junit') return { fileName: 'ferry-run.xml', text: run.junit };
      if (format === 'json') return { fileName: 'ferry-run.json', text: run.json };
      throw new ApiError(400, `Unknown report format "${format}": json or junit.`);
    },
  };
}
