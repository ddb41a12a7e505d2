/**
 * Copy a saved request as code (spec 4.7): the same preparation a send uses, without sending.
 * OAuth 2.0 uses a cached token or `<access-token>`; auth types that sign at send time are left
 * to the snippet's comments.
 */
import { readSettings, WorkspaceData } from '../appdata/index.js';
import { exportRequest } from './index.js';
import type { Target } from './target.js';
import { graphqlOperation, requestKind } from '../protocols/index.js';
import { effectiveAuth, loadVariableSnapshot, prepareRequest, type Face, type PreparedRequest, type VariableSnapshot } from '../request/index.js';
import { buildVariableScope, render } from '../template/index.js';
import type { Workspace } from '../workspace/index.js';
import { resolveEnvironment, RunError, RunVariables, SecretMask } from '../variables/index.js';
import type { RequestFile } from '../model/index.js';
import { findFolder, formatWarning, selectRequests, unsavedItem } from '../workspace/index.js';

export interface ExportSavedOptions {
  lang: string;
  lib?: string;
  /** Fill `{{variables}}` (default). Off keeps `{{name}}`; dynamic values get a value either way. */
  substitute?: boolean;
  /** Environment id or name; default: the one active on this computer. */
  environment?: string;
  /** `--var key=value`, winning over every other definition. */
  vars?: ReadonlyMap<string, string>;
  platform?: NodeJS.Platform;
  /** `--allow-files-outside`: body files outside the workspace folder may be read (else the setting decides). */
  allowFilesOutside?: boolean;
  /** The app's editor holds a request not written yet: exported as if saved at the path (its folders must exist). */
  draft?: RequestFile;
  /** Who shows a refusal (the app's page words its remedies for the app); default the command line. */
  face?: Face;
}


/** Values this short are not looked for in the code: "abc" would be found in any code, and hides little. */
const MIN_CHECKED_SECRET = 4;

export interface ExportedCode {
  target: Target;
  code: string;
  /**
   * What the code holds in plain text that is kept secret elsewhere: `secret variable NAME`,
   * `auth credentials (a password, a token or an API key)`. A face warns about them.
   */
  secretsInCode: string[];
  prepared: PreparedRequest;
}

/** A saved request prepared as a send would prepare it (variables, auth, body), without sending. */
export interface PreparedSaved {
  prepared: PreparedRequest;
  /** Its path under `requests/` as found (`Users/Get user.yaml`). */
  path: string;
  /** Notes for a reader of the result (variables kept as written in Basic credentials). */
  notes: string[];
  /** The secret values of the workspace and the environment (to find them in what is shown). */
  secrets: VariableSnapshot['secrets'];
}

/**
 * The one preparation without a send, for code export and for showing a request as it would go
 * out (`ferry mcp`'s describe_request): OAuth 2.0 uses a cached token or `<access-token>` (no
 * token is fetched), auth types that sign at send time are left out.
 */
export async function prepareSavedRequest(workspace: Workspace, requestPath: string, options: Omit<ExportSavedOptions, 'lang' | 'lib' | 'platform'> & { action?: string } = {}): Promise<PreparedSaved> {
  const action = options.action ?? 'export';
  const items = options.draft ? [unsavedItem(workspace.tree, requestPath, options.draft)] : selectRequests(workspace.tree, [requestPath], { warnings: workspace.warnings });
  const item = items[0];
  if (items.length !== 1 || !item || (!options.draft && isFolder(workspace, requestPath))) {
    throw new RunError(`"${requestPath}" is a folder; ${action} takes one request (Folder/Name.yaml).`);
  }
  if (item.node.type === 'broken') throw new RunError(`${formatWarning(item.node.warning)} (fix the file, then ${action} again)`);
  const request = item.node.request;
  const kind = requestKind(request.kind);

  const data = new WorkspaceData(workspace.id, workspace.root);
  const keep = options.substitute === false;
  const snapshot = await loadVariableSnapshot(workspace, data, await resolveEnvironment(workspace, options.environment, data));
  // The scope a send has (globals scripts set included), so the code holds what Ferry would send (spec 4.7.1).
  const filled = new RunVariables(snapshot, options.vars ?? new Map()).scope();
  // Without substitution the request keeps `{{name}}`; the OAuth 2.0 settings are still filled
  // to find the cached token, which is not a variable.
  const variables = keep ? buildVariableScope({}) : filled;
  const prepared = await prepareRequest(
    { request, path: item.node.path, folders: item.folders, workspace: { root: workspace.root, file: workspace.file }, variables },
    {
      data,
      settings: await readSettings(),
      oauth2: { fetchTokens: false, ...(keep ? { settingsFill: (text: string) => render(text, 'request', { variables: filled }) } : {}) },
      unsendableAuth: 'omit',
      kind,
      // An undefined `{{name}}` stays as written in the URL (as Postman's code shows it), not as %7B%7Bname%7D%7D.
      keepPlaceholders: keep ? true : 'undefined',
      ...(options.allowFilesOutside ? { allowFilesOutside: true } : {}),
      ...(options.face ? { face: options.face } : {}),
    },
  );
  const notes: string[] = [];
  const { auth } = effectiveAuth(request, item.folders, workspace.file);
  if (keep && auth.type === 'basic' && /\{\{/.test(`${String(auth.username ?? '')}:${String(auth.password ?? '')}`)) {
    notes.push('Basic auth: the Authorization header encodes the user name and password with their {{variables}} as written;');
    notes.push('export with substitution on to get the real credentials, or Base64-encode USER:PASSWORD yourself.');
  }
  notes.push(...(await subscriptionNote(prepared)));
  return { prepared, path: item.node.path, notes, secrets: snapshot.secrets };
}

export async function exportSavedRequest(workspace: Workspace, requestPath: string, options: ExportSavedOptions): Promise<ExportedCode> {
  const items = options.draft ? [unsavedItem(workspace.tree, requestPath, options.draft)] : selectRequests(workspace.tree, [requestPath], { warnings: workspace.warnings });
  const node = items.length === 1 ? items[0]!.node : undefined;
  // Only HTTP requests become code; said before anything is prepared.
  if (node?.type === 'request' && (options.draft || !isFolder(workspace, requestPath))) {
    const kind = requestKind(node.request.kind);
    if (!kind.exportsAsCode) throw new RunError(`requests/${node.path} is ${kind.noun}; only HTTP requests can be exported as code.`);
  }
  const { prepared, notes, secrets } = await prepareSavedRequest(workspace, requestPath, options);
  const exported = exportRequest(prepared, { lang: options.lang, lib: options.lib, platform: options.platform, notes });
  const names = new Set<string>();
  for (const [name, value] of [...Object.entries(secrets.workspace), ...Object.entries(secrets.environment)]) {
    if (holds(exported.code, value)) names.add(name);
  }
  const secretsInCode = [...names].map((name) => `secret variable ${name}`);
  if ((prepared.credentials ?? []).some((value) => holds(exported.code, value))) secretsInCode.push('auth credentials (a password, a token or an API key)');
  return { ...exported, secretsInCode, prepared };
}

const TRANSPORT_NAMES = { websocket: 'WebSocket (graphql-transport-ws)', websocketLegacy: 'WebSocket (subscriptions-transport-ws)', sse: 'GraphQL over SSE' };

/** A GraphQL subscription is not a POST: the code says so (Ferry subscribes instead, issue 25). */
async function subscriptionNote(prepared: PreparedRequest): Promise<string[]> {
  const operation = await graphqlOperation(prepared).catch(() => undefined); // a query that does not parse is exported as written
  if (operation?.type !== 'subscription') return [];
  return [
    `GraphQL subscription: Ferry subscribes over ${TRANSPORT_NAMES[operation.subscription.transport ?? 'websocket']} instead of POSTing;`,
    'this code only POSTs the operation, which a server answers with an error or not at all. Use a GraphQL subscription client.',
  ];
}

/** Whether the code holds the value as written or encoded (as the run's secret mask finds it). */
function holds(code: string, value: string): boolean {
  if (value.length < MIN_CHECKED_SECRET) return false;
  const mask = new SecretMask();
  mask.add(value);
  return mask.text(code) !== code;
}

function isFolder(workspace: Workspace, requestPath: string): boolean {
  const wanted = requestPath.replace(/\\/g, '/').replace(/^requests\//i, '').replace(/\/+$/, '');
  return !/\.ya?ml$/i.test(wanted) && findFolder(workspace.tree, wanted) !== undefined
    && !selectRequests(workspace.tree, [wanted]).some((i) => i.node.path.toLowerCase() === `${wanted.toLowerCase()}.yaml`);
}
