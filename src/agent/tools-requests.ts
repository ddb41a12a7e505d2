/**
 * Tools over the requests of the workspace: list, describe (as saved and as prepared), send (a
 * saved request or one given inline), run (a folder or the workspace) and check a saved
 * request's last answer against its API document. All of it goes through the session API and
 * the core, as `ferry run`, `ferry ls` and the app do.
 */
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { prepareSavedRequest } from '../codegen/export-saved.js';
import { ContractDocuments, contractTestFor } from '../contract/index.js';
import { parseResource, REQUEST_KINDS, type RequestFile } from '../model/index.js';
import { requestKind } from '../protocols/index.js';
import { jsonReport, selectRequests, type JsonReport, type Reporter, type RunEvent } from '../runner/index.js';
import { readFileNoFollow } from '../support/read-no-follow.js';
import { resolveEnvironment } from '../variables/index.js';
import { baseFileName, checkNoSymlinks, findFolder, formatWarning, REQUESTS_DIR, type FolderNode, type WarningCode, type Workspace } from '../workspace/index.js';
import { answer } from './answer.js';
import { AgentError } from './errors.js';
import { addPreparedCredentials } from './mask.js';
import { isRefusedProgram, refusalForAgent } from './programs.js';
import { messageProgress, progressReporter } from './progress.js';
import { maskDeep } from '../variables/workspace-mask.js';
import { cutText, LIMITS } from './limits.js';
import type { AgentState, VariableChoice } from './state.js';
import { boundedReportResult, preparedView, sendView, unresolvedVariables } from './views.js';

/**
 * A variable's value as a client gives it in JSON: text, or a number, true/false or null, which
 * become the text `--var key=value` would give (42 → "42", true → "true", null → "").
 */
const variableValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()], { error: 'a variable is text, a number, true/false or null; give an object or a list as JSON text, such as "[1, 2]"' })
  .transform((value) => (value === null ? '' : String(value)));

export const variableArgs = {
  environment: z.string().min(1).optional().describe('Environment id (file name under environments/) or display name; default: the one active on this computer.'),
  variables: z.record(z.string(), variableValue).optional().describe('Variables that win over every other definition, as --var key=value does: {"userId": 42, "debug": true}. Numbers and true/false become their text, null an empty value.'),
};

const requestPath = z.string().min(1).describe('The request path under requests/, e.g. "Users/Get user.yaml" (extension optional), as list_requests shows it.');

function choiceOf(args: VariableChoice): VariableChoice {
  return { ...(args.environment !== undefined ? { environment: args.environment } : {}), ...(args.variables ? { variables: args.variables } : {}) };
}

interface Listed {
  path: string;
  name?: string;
  kind?: string;
  method?: string;
  tag?: string;
  folder: string;
  broken?: string;
  /** Why a broken file was not read, where its warning says (`ferry ls --json`'s codes). */
  code?: WarningCode;
}

function listTree(folder: FolderNode, out: Listed[], folders: Array<{ path: string; name: string }>): void {
  for (const child of folder.children) {
    if (child.type === 'folder') {
      folders.push({ path: child.path, name: child.name });
      listTree(child, out, folders);
    } else if (child.type === 'request') {
      const r = child.request;
      out.push({ path: child.path, name: r.name, kind: r.kind, method: r.method.toUpperCase(), tag: requestKind(r.kind).tag(r.method.toUpperCase()), folder: folder.path });
    } else out.push({ path: child.path, folder: folder.path, broken: formatWarning(child.warning), ...(child.warning.code ? { code: child.warning.code } : {}) });
  }
}

/** A saved request's path as the runner knows it (`Users/Get user.yaml`), or a clear refusal. */
function savedPath(ws: Workspace, wanted: string): string {
  const items = selectRequests(ws.tree, [wanted]);
  if (items.length !== 1) throw new AgentError(`"${wanted}" is a folder, not one request; give a request path as list_requests shows it.`);
  return items[0]!.node.path;
}

/** The inline request checked against the format, placed in `folder` (which must exist). */
function inlineRequest(ws: Workspace, given: unknown, folder: string | undefined): { request: RequestFile; path: string } {
  const parsed = parseResource('request', given);
  if (!parsed.ok) {
    const p = parsed.problems[0]!;
    throw new AgentError(`The inline request is not valid: ${p.path.join('.') || 'request'}: ${p.message}. Give it as a request file's fields: {"name": "Draft", "method": "GET", "url": "http://127.0.0.1:4010/users"}.`);
  }
  const dir = (folder ?? '').replace(/\\/g, '/').replace(/^requests\//i, '').replace(/^\/+|\/+$/g, '');
  if (dir.split('/').some((part) => part === '..' || part === '.')) throw new AgentError(`folder "${folder}" must be a folder under requests/, without . or .. parts.`);
  if (dir !== '' && !findFolder(ws.tree, dir)) throw new AgentError(`No folder "${dir}" under requests/; give a folder that list_requests shows, or none for the root.`);
  const file = `${baseFileName(parsed.value.name || 'Untitled')}.yaml`;
  return { request: parsed.value, path: dir ? `${dir}/${file}` : file };
}

export function registerRequestTools(server: McpServer, state: AgentState): void {
  server.registerTool(
    'list_requests',
    {
      title: 'List requests',
      description: 'The requests of the Ferry workspace in tree order: path, name, kind (http, sse, websocket, grpc, mcp…), method, folder; files that do not parse are listed with their error. Optionally filtered.',
      inputSchema: {
        filter: z.string().optional().describe('Keep requests whose path, name or URL contains this text (any case).'),
        kind: z.enum(REQUEST_KINDS).optional().describe('Keep requests of this kind only.'),
        folder: z.string().optional().describe('Keep requests under this folder path.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws }) => {
        const all: Listed[] = [];
        const folders: Array<{ path: string; name: string }> = [];
        listTree(ws.tree, all, folders);
        const urls = new Map<string, string>();
        const collect = (f: FolderNode) => f.children.forEach((c) => (c.type === 'folder' ? collect(c) : c.type === 'request' ? urls.set(c.path, c.request.url) : undefined));
        collect(ws.tree);
        const needle = args.filter?.toLowerCase();
        const under = args.folder?.replace(/\\/g, '/').replace(/^requests\//i, '').replace(/^\/+|\/+$/g, '').toLowerCase();
        if (under && !findFolder(ws.tree, under)) {
          throw new AgentError(`No folder "${args.folder}" under requests/. ${folders.length ? `Folders here: ${folders.slice(0, 50).map((f) => f.path).join(', ')}.` : 'The workspace has no folders.'}`);
        }
        const kept = all.filter((r) =>
          (!needle || [r.path, r.name ?? '', urls.get(r.path) ?? ''].some((t) => t.toLowerCase().includes(needle))) &&
          (!args.kind || r.kind === args.kind) &&
          (!under || r.path.toLowerCase().startsWith(`${under}/`)));
        return {
          workspace: ws.file.name || ws.root,
          requests: kept.slice(0, LIMITS.listedRequests),
          ...(kept.length > LIMITS.listedRequests ? { note: `${kept.length} requests match; the first ${LIMITS.listedRequests} are listed. Narrow with filter, kind or folder.` } : {}),
          folders: folders.filter((f) => !under || f.path.toLowerCase() === under || f.path.toLowerCase().startsWith(`${under}/`)),
          // As `ferry ls --json` gives them: a program reads `code`, never the words.
          ...(ws.warnings.length ? { warnings: ws.warnings } : {}),
        };
      }),
  );

  server.registerTool(
    'describe_request',
    {
      title: 'Describe a request',
      description: 'A saved request as its file holds it (YAML), and as Ferry would send it with an environment: inherited headers and auth, {{variables}} filled, the body encoded. Nothing is sent; secret values are shown as ***.',
      inputSchema: {
        path: requestPath,
        ...variableArgs,
        substitute: z.boolean().optional().describe('Fill {{variables}} (default true); false keeps them as written.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws, alsoMask }) => {
        const found = savedPath(ws, args.path);
        const file = path.join(ws.root, REQUESTS_DIR, ...found.split('/'));
        const linked = await checkNoSymlinks(ws.root, path.relative(ws.root, file));
        if (linked) throw new AgentError(`Cannot read requests/${found}: ${linked}.`);
        const saved = await readFileNoFollow(file, 'utf8', LIMITS.resourceBytes);
        const data = state.dataFolder(ws);
        const environment = await resolveEnvironment(ws, args.environment, data);
        const { prepared: unshaped, notes } = await prepareSavedRequest(ws, found, {
          action: 'describe',
          face: 'agent',
          ...(args.environment !== undefined ? { environment: args.environment } : {}),
          vars: new Map(Object.entries(args.variables ?? {})),
          substitute: args.substitute !== false,
        });
        // What the kind always adds when sending (SSE: `Accept: text/event-stream`), as a send does.
        const shape = requestKind(unshaped.kind ?? 'http').shape;
        const prepared = shape ? shape(unshaped) : unshaped;
        alsoMask((mask) => addPreparedCredentials(mask, prepared));
        const unresolved = args.substitute === false ? [] : unresolvedVariables(prepared);
        const allNotes = [
          ...notes,
          ...(unresolved.length
            ? [`${unresolved.map((n) => `{{${n}}}`).join(', ')} ${unresolved.length === 1 ? 'has' : 'have'} no value here and would be sent as written: give ${unresolved.length === 1 ? 'it' : 'them'} in variables, or an environment that defines ${unresolved.length === 1 ? 'it' : 'them'} (list_environments).`]
            : []),
        ];
        return {
          path: found,
          file: `requests/${found}`,
          saved: cutText(saved, LIMITS.bodyChars).text,
          environment: environment ?? null,
          prepared: preparedView(prepared),
          ...(unresolved.length ? { unresolved } : {}),
          ...(allNotes.length ? { notes: allNotes } : {}),
        };
      }),
  );

  server.registerTool(
    'send_request',
    {
      title: 'Send a request',
      description:
        'Sends a saved request (path) or an unsaved one given inline (request, placed in folder for its inherited auth, headers and scripts) with its scripts and tests, as the app does. Returns status, headers, the body (cut at maxBodyChars), test results and timings; streaming kinds (SSE, WebSocket…) read until settings.stream says stop. Secret values are shown as ***.',
      inputSchema: {
        path: requestPath.optional(),
        request: z.record(z.string(), z.unknown()).optional().describe('An unsaved request: the fields of a request file, e.g. {"name": "Draft", "method": "POST", "url": "{{baseUrl}}/users", "body": {"type": "json", "text": "{}"}}.'),
        folder: z.string().optional().describe('For an inline request: the folder under requests/ it sits in (default: the root).'),
        ...variableArgs,
        maxBodyChars: z.number().int().min(0).max(LIMITS.maxBodyChars).optional().describe(`Characters of the response body to return (default ${LIMITS.bodyChars}).`),
      },
      // A send may change the server's data (POST, DELETE) and writes history and cookies here.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      answer(state, async ({ ws }) => {
        if ((args.path === undefined) === (args.request === undefined)) throw new AgentError('Give either path (a saved request) or request (an inline one), not both and not neither.');
        if (args.path !== undefined && args.folder !== undefined) throw new AgentError('folder places an inline request; a saved request (path) sits where its file is.');
        const target = args.path !== undefined ? savedPath(ws, args.path) : inlineRequest(ws, args.request, args.folder);
        const onMessage = messageProgress(extra);
        const { result, response } = await state.withSession(ws, choiceOf(args), (session) => session.exchange(target, { signal: extra.signal, ...(onMessage ? { onMessage } : {}) }));
        if (typeof target === 'string' && response) {
          state.lastResponses.set(result.path.toLowerCase(), { path: result.path, at: result.startedAt, status: response.outcome.status, headers: response.headers, body: response.body });
        }
        const view = sendView({ ...result, error: refusalForAgent(result.error) }, response, args.maxBodyChars ?? LIMITS.bodyChars);
        if (isRefusedProgram(view.error as string | undefined)) {
          view.note = '`ferry mcp` never allows programs itself: ask the user to check the command and allow it with `ferry programs allow` in this workspace.';
        }
        return view;
      }),
  );

  server.registerTool(
    'run',
    {
      title: 'Run requests',
      description: 'Runs requests, folders or the whole workspace in tree order with their scripts and tests, as `ferry run -r json` does, and returns the JSON report (also readable later as the resource ferry://run/last). Secret values are shown as ***.',
      inputSchema: {
        paths: z.array(z.string().min(1)).max(100).optional().describe('Request or folder paths under requests/; none = the whole workspace.'),
        ...variableArgs,
        iterations: z.number().int().min(1).max(1000).optional().describe('Run everything this many times (default 1).'),
        bail: z.boolean().optional().describe('Stop at the first failed request or test.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      answer(state, async ({ ws }) => {
        let start: Extract<RunEvent, { type: 'start' }> | undefined;
        const reporter: Reporter = { onEvent: (event) => void (event.type === 'start' && (start = event)) };
        const progress = progressReporter(extra);
        const reporters = progress ? [reporter, progress] : [reporter];
        // The outcome keeps every result (bounded by the tool's iteration limit) for the report.
        const outcome = await state.withSession(ws, choiceOf(args), (session) => session.run(args.paths ?? [], { iterations: args.iterations, bail: args.bail, reporters, signal: extra.signal }));
        const report: JsonReport = jsonReport(start, outcome);
        for (const result of report.results) result.error = refusalForAgent(result.error);
        const mask = await state.mask(ws);
        state.lastRun = maskDeep(report, mask);
        const text = JSON.stringify(state.lastRun, null, 2);
        if (text.length <= LIMITS.reportChars) return text;
        // Too long to read at once: the summary, the failures first, and where the rest is.
        const failed = state.lastRun.results.filter((r) => !r.passed);
        return {
          note: `The report has ${state.lastRun.results.length} results (${text.length} characters); shown: the summary and the failed results. Read the whole report as the resource ferry://run/last.`,
          summary: state.lastRun.summary,
          failed: failed.slice(0, 50).map(boundedReportResult),
        };
      }),
  );

  server.registerTool(
    'check_contract',
    {
      title: 'Check against the API spec',
      description: "Checks the last answer send_request received for a saved request against the OpenAPI document its folder links (the 'Matches the API spec' test): the status must be documented and a JSON body must match the schema. Send the request first.",
      inputSchema: { path: requestPath },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws }) => {
        const found = savedPath(ws, args.path);
        const last = state.lastResponses.get(found.toLowerCase());
        if (!last) throw new AgentError(`No answer for requests/${found} yet in this session: send it with send_request first, then check it.`);
        const item = selectRequests(ws.tree, [found])[0]!;
        if (item.node.type !== 'request') throw new AgentError(`requests/${found} does not parse now: ${formatWarning(item.node.warning)}`);
        let skipped: string | undefined;
        const test = await contractTestFor({
          documents: new ContractDocuments(ws.root),
          request: item.node.request,
          folderChain: item.folders.map((f) => f.settings),
          response: last,
          onSkip: (reason) => (skipped = reason),
        });
        const answered = { path: found, answeredAt: last.at, status: last.status };
        if (!test) return { ...answered, checked: false, reason: `Not checked: ${skipped ?? 'the check does not apply to this request'}.` };
        return { ...answered, checked: true, test: { name: test.name, passed: test.passed, ...(test.message ? { problems: test.message.split('\n') } : {}) } };
      }),
  );
}
