/**
 * The one place a saved request becomes a wire-ready `PreparedRequest` (spec 2.2–2.7, 2.9, 5):
 * headers and auth inherited from folders and the workspace, `{{variables}}` filled, path
 * parameters, the body and its Content-Type. Sending, code export and load tests all call this.
 */
import type { AppSettings, WorkspaceData } from '../appdata/index.js';
import { DEFAULT_SETTINGS } from '../appdata/index.js';
import type { Auth, RequestFile, WorkspaceFile } from '../model/index.js';
import { render, type VariableScope } from '../template/index.js';
import { applyAuth, AUTH_NAMES, type AuthTarget } from './auth.js';
import { prepareBody } from './body.js';
import { PrepareError } from './errors.js';
import { effectiveAuth, mergedHeaders, type EffectiveAuth, type FolderLike } from './inherit.js';
import type { OAuth2Options } from './oauth2.js';
import type { KindRules, PreparedHeader, PreparedRequest, PreparedSettings } from './prepared.js';
import { fillKindOptions } from './kind-options.js';
import { repeatSigning, signRequest, signsRequest } from './sign.js';
import { effectiveSettings } from './settings.js';
import { applyPathParams, finalUrl, urlKeepingPlaceholders, type Face } from './url.js';
import { loadOnce } from '../support/load-once.js';

export interface PrepareInput {
  /** The saved request (or a copy that pre-request scripts changed). */
  request: RequestFile;
  /** Path relative to `requests/` (`Folder/Name.yaml`), for messages and the result. */
  path?: string;
  /** The chain of folders above the request, outermost first (as `walkRequests` gives it). */
  folders: readonly FolderLike[];
  workspace: { root: string; file: Pick<WorkspaceFile, 'auth' | 'headers'> };
  /** The variables to fill in; leave out to send placeholders as written. */
  variables?: VariableScope;
}

export interface PrepareOptions {
  /** This computer's data for the workspace (OAuth 2.0 token cache). */
  data?: WorkspaceData;
  /** Application settings; defaults when left out. */
  settings?: AppSettings;
  /** Run-wide overrides (`--timeout-ms`, `--insecure`), winning over the request's own settings. */
  overrides?: Partial<PreparedSettings>;
  /** Body files outside the workspace may be used; defaults to the `filesOutsideWorkspace` setting. */
  allowFilesOutside?: boolean;
  /**
   * OAuth 2.0: `fetchTokens: false` uses a cached token only and never fetches one (code export
   * shows `<access-token>` when none is cached). Default: fetch when needed.
   */
  oauth2?: Partial<OAuth2Options>;
  /** Auth types Ferry cannot send: fail (default, for sending) or leave them out (export). */
  unsendableAuth?: 'error' | 'omit';
  /**
   * Code export: `{{name}}` placeholders left in the URL come back as written, not percent-encoded.
   * `true` (substitution off): they may stand anywhere, even the host. `'undefined'` (substitution
   * on, so only undefined ones are left): the URL must hold as a sent one must (a host left
   * undefined is refused as for a send), and placeholders in its path and query stay as written.
   */
  keepPlaceholders?: boolean | 'undefined';
  /** How the request's kind is prepared (its protocol module's rules); HTTP's when left out. */
  kind?: KindRules;
  /**
   * Load tests: a signing auth type (AWS, OAuth 1.0, JWT, ASAP, Hawk, EdgeGrid) is also kept to be
   * done again at each send, with the request as it was before signing (`PreparedRequest.signEachSend`).
   */
  signEachSend?: boolean;
  /** Who shows a refusal (how it says to choose an environment); the command line's when left out. */
  face?: Face;
  /**
   * What the request is prepared for: a send (the default), or `describe`, listing what its target
   * offers (the kind's `describe`: the app's gRPC method and MCP tool pickers), which needs no
   * method chosen yet (KindRules.methodIs).
   */
  purpose?: 'send' | 'describe';
}

/** HTTP's rules, for callers that prepare HTTP requests only (code export, tests). */
export const HTTP_RULES: KindRules = { kind: 'http', noun: 'an HTTP request', url: 'url', schemes: ['http', 'https'], method: 'http', httpClient: true };

export async function prepareRequest(input: PrepareInput, options: PrepareOptions = {}): Promise<PreparedRequest> {
  const { request, folders, workspace } = input;
  const where = input.path ? `requests/${input.path}` : `request "${request.name}"`;
  const variables = input.variables;
  const fill = variables ? (text: string) => render(text, 'request', { variables }) : (text: string) => text;
  const app = options.settings ?? DEFAULT_SETTINGS;
  const settings = effectiveSettings(app, request.settings, options.overrides);
  const rules = options.kind ?? HTTP_RULES;
  if (rules.kind !== request.kind) throw new PrepareError(`${where}: a ${request.kind} request is not sent as ${rules.noun.replace(/ request$/, '')}.`);

  const method = prepareMethod(fill(request.method), rules, where, options.purpose ?? 'send');
  const typedUrl = applyPathParams(fill(request.url), request.pathParams, fill);
  // A `text` kind that lists schemes (MCP: a URL or a command) prepares a typed `scheme://…` as a URL: headers and auth apply, other schemes are refused.
  const typedAsUrl = rules.url === 'text' && rules.schemes.length > 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(typedUrl.trim());
  if (rules.url === 'text' && !typedAsUrl) return prepareNamed(input, options, rules, { method, target: typedUrl.trim(), fill, settings, where });
  if (options.keepPlaceholders === 'undefined') finalUrl(typedUrl, where, rules.noun, rules.schemes, options.face);
  const { url, restore } = options.keepPlaceholders
    ? urlKeepingPlaceholders(typedUrl, where)
    : { url: finalUrl(typedUrl, where, rules.noun, rules.schemes, options.face), restore: (href: string) => href };

  const headers: PreparedHeader[] = [];
  // A kind with no place for headers (KindRules.sendsHeaders) takes none, so that a workspace's or
  // folder's header rows, meant for the HTTP requests beside it, can neither fail nor burden it.
  for (const row of rules.sendsHeaders === false ? [] : mergedHeaders(workspace.file, folders, request)) {
    const name = fill(row.key).trim();
    if (name === '') continue;
    if (!HEADER_NAME.test(name)) throw new PrepareError(`${where}: header name "${name}" is not valid (letters, digits and - only).`);
    const value = fill(row.value);
    if (/[\r\n\0]/.test(value)) throw new PrepareError(`${where}: the value of header ${name} contains a line break, which HTTP does not allow.`);
    // Code export writes the value as typed (curl sends its UTF-8 bytes); a send refuses it.
    const unsendable = options.unsendableAuth === 'omit' ? undefined : unsendableHeaderCharacter(value);
    if (unsendable) throw new PrepareError(`${where}: the value of header ${name} has ${unsendable}, which an HTTP header cannot carry (its values are Latin-1 text without control characters); percent-encode the value, or check the variables it uses.`);
    headers.push({ name, value });
  }

  const auth = authSent(effectiveAuth(request, folders, workspace.file), rules.sendsAuth, where, (name) => unsentByKind(name, rules));
  const target: AuthTarget = { url, headers };
  const headersBefore = headers.length;
  try {
    await applyAuth(auth, target, {
      fill,
      unsendable: options.unsendableAuth ?? 'error',
      oauth2: { fetchTokens: true, data: options.data, ...options.oauth2 },
    });
  } catch (error) {
    if (error instanceof PrepareError) throw new PrepareError(`${where}: ${error.message}`);
    throw error;
  }
  checkAuthHeaders(headers.slice(headersBefore), auth, where);

  // Digest and NTLM answer a 401 challenge, which only the HTTP client (HTTP and SSE requests) does:
  // elsewhere the credentials would silently not be sent.
  if ((target.digest || target.ntlm) && !rules.httpClient && options.unsendableAuth !== 'omit') {
    throw new PrepareError(`${where}: ${AUTH_NAMES[auth.type]} auth answers the server's challenge on HTTP and SSE requests only, not on ${rules.noun}; use Basic, Bearer or an API key, or a header.`);
  }

  // Credentials typed in the URL (`https://user:pass@host`) go as Basic auth, as browsers, curl
  // and Postman send them (the HTTP client would drop them); explicit auth and headers win.
  // (Not when the user name or password is a placeholder kept as written: it is not a credential yet.)
  if ((url.username || url.password) && restore(`${url.username}:${url.password}`) === `${url.username}:${url.password}`) {
    if (!headers.some((h) => h.name.toLowerCase() === 'authorization')) {
      const basic = Buffer.from(`${percentDecoded(url.username)}:${percentDecoded(url.password)}`, 'utf8').toString('base64');
      headers.push({ name: 'Authorization', value: `Basic ${basic}` });
      if (url.password) (target.credentials ??= []).push(percentDecoded(url.password), basic);
    }
    url.username = '';
    url.password = '';
  }

  const { body, contentType } = await prepareBody(request.body, {
    root: workspace.root,
    allowFilesOutside: options.allowFilesOutside ?? app.filesOutsideWorkspace,
    fill,
    where,
    ...(options.face ? { face: options.face } : {}),
  });
  if (contentType && !rules.encodesBody && !headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: contentType });

  const allowFilesOutside = options.allowFilesOutside ?? app.filesOutsideWorkspace;
  let signed = false;
  /** Why the signature could not be made (code export only, which goes on without it). */
  let signProblem: string | undefined;
  // One map of key files read for this request: signing it again (redirects, load-test sends) reads none.
  const signContext = { fill, root: workspace.root, allowFilesOutside, where, keyFiles: new Map<string, string>() };
  // A copy of each part signing changes (OAuth 1.0 may put its parameters in a form body).
  const unsigned = options.signEachSend && signsRequest(auth.type) ? { url: url.href, headers: headers.map((h) => ({ ...h })), body: { ...body } } : undefined;
  // Signed with the method the server sees (the kind's `wireMethod`): the WebSocket and Socket.IO
  // upgrades are GETs; gRPC calls (whose `method` names the call) and MCP's first request are POSTs.
  const wireMethod = rules.wireMethod ?? (rules.method === 'http' ? method : 'GET');
  // A signed request: each further HTTP request of its send is signed again (signEachHop): a
  // redirect within the origin, a gRPC call to another path (reflection's), each request of an MCP
  // session or a Socket.IO connection, a GraphQL subscription's WebSocket upgrade.
  const hopSigned = options.unsendableAuth !== 'omit' && signsRequest(auth.type);
  const headersUnsigned = hopSigned ? new Set(headers.map((h) => `${h.name.toLowerCase()}\n${h.value}`)) : undefined;
  // Signed with the URL the server sees too (the kind's `wireUrl`: gRPC's authority with its port
  // and /package.Service/Method); what a signer adds to the query stays on the URL sent.
  const signedUrl = (signsRequest(auth.type) ? await rules.wireUrl?.(url, method) : undefined) ?? url;
  try {
    signed = await signRequest(auth, { method: wireMethod, url: signedUrl, headers, body, ...(rules.encodesBody ? { bodyEncodedBy: rules.noun } : {}) }, signContext);
    if (signedUrl !== url) url.search = signedUrl.search;
  } catch (error) {
    // Code export shows an unsigned request (its comment says so) rather than no code at all.
    if (!(error instanceof PrepareError) || options.unsendableAuth !== 'omit') throw error;
    signProblem = error.message.startsWith(`${where}: `) ? error.message.slice(where.length + 2) : error.message;
  }

  const prepared: PreparedRequest = { method, url: restore(url.href), headers, body, authType: auth.type, settings };
  addCommonParts(prepared, input, rules, auth, fill);
  if (target.oauth2TokenCached !== undefined) prepared.oauth2TokenCached = target.oauth2TokenCached;
  if (target.digest) prepared.digest = target.digest;
  if (target.ntlm) prepared.ntlm = target.ntlm;
  if (signsRequest(auth.type)) prepared.signed = signed;
  if (signProblem !== undefined) prepared.signProblem = signProblem;
  // Signed now too: a problem (a key that cannot be read, a bad field) is found before anything is sent.
  if (unsigned && signed) prepared.signEachSend = { ...unsigned, url: restore(unsigned.url), signing: await repeatSigning(auth, signContext) };
  if (headersUnsigned && signed) {
    const added = new Set(headers.filter((h) => !headersUnsigned.has(`${h.name.toLowerCase()}\n${h.value}`)).map((h) => h.name.toLowerCase()));
    prepared.signEachHop = { added: [...added], signing: loadOnce(() => repeatSigning(auth, signContext)), ...(rules.encodesBody ? { bodyEncodedBy: rules.noun } : {}) };
  }
  if (target.credentials) prepared.credentials = target.credentials;
  if (auth.type === 'apiKey' && auth.location !== 'query') {
    const keyHeader = fill(String(auth.key ?? '')).trim();
    if (keyHeader !== '') prepared.credentialHeaders = [keyHeader];
  }
  // AWS's session token is a credential of its own, sent beside the signature.
  if (auth.type === 'awsv4') prepared.credentialHeaders = ['X-Amz-Security-Token'];
  return prepared;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The first character of a header value that Node's HTTP client, undici and ws refuse (beyond
 * Latin-1, or a control character other than tab), and where: found here, every kind that sends
 * headers says it in one line, where each library threw its own words (ws: "Invalid character in
 * header content", a crash; Socket.IO's handshake: a retry until the time limit).
 */
function unsendableHeaderCharacter(value: string): string | undefined {
  const bad = /[^\t\x20-\x7e\x80-\xff]/u.exec(value);
  if (!bad) return undefined;
  const shown = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(bad[0]) ? JSON.stringify(bad[0]) : `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${shown} at character ${[...value.slice(0, bad.index)].length + 1}`;
}

/**
 * The auth a request sends when its kind sends only some (KindRules.sendsAuth): its effective
 * auth, `none` for an inherited one it cannot send, and a refusal (`unsent`, given the auth's
 * name) for one set on the request itself, which would otherwise be left out without a word.
 */
function authSent({ auth, source }: EffectiveAuth, sends: KindRules['sendsAuth'], where: string, unsent: (name: string) => string): Auth {
  if (!sends || auth.type === 'none' || (sends === 'basic' && auth.type === 'basic')) return auth;
  if (source !== 'request') return { type: 'none' };
  throw new PrepareError(`${where}: ${unsent(AUTH_NAMES[auth.type] ?? auth.type)}`);
}

/** Why a kind does not send an auth type (KindRules.sendsAuth), and what to set instead. */
function unsentByKind(name: string, rules: KindRules): string {
  const kinds = `${rules.noun.replace(/^an? /, '')}s`;
  if (rules.sendsAuth === 'basic') return `${name} auth is not sent by ${kinds}, which send Basic auth only (the broker's user name and password, in CONNECT). Set this request's auth to basic, or to none (or inherit).`;
  return `${name} auth is not sent by ${kinds}: they carry no credentials of their own. Set this request's auth to none (or inherit).`;
}

/**
 * The headers auth adds, checked as header rows are: a token pasted with its newline, or a
 * character beyond Latin-1, would otherwise fail at sending as "invalid Authorization header".
 */
function checkAuthHeaders(added: readonly PreparedHeader[], auth: Auth, where: string): void {
  const label = `${AUTH_NAMES[auth.type] ?? auth.type} auth`;
  for (const { name, value } of added) {
    if (!HEADER_NAME.test(name)) throw new PrepareError(`${where}: the API key's header name "${name}" is not valid (letters, digits and - only); fix the key, or send it in the query (location: query).`);
    if (/[\r\n\0]/.test(value)) throw new PrepareError(`${where}: the ${name} header of ${label} contains a line break, which HTTP does not allow; check the auth's fields and the variables they use (a token pasted with its newline?).`);
    const wide = /[^\x00-\xff]/.exec(value);
    if (wide) throw new PrepareError(`${where}: the ${name} header of ${label} contains "${wide[0]}", which an HTTP header cannot carry; check the auth's fields and the variables they use.`);
  }
}

/**
 * HTTP methods are tokens, upper-cased (GET when empty); other kinds read `method` as typed or not
 * at all. A kind's `methodIs` is required to send only: a describe lists the methods to choose from.
 */
function prepareMethod(typed: string, rules: KindRules, where: string, purpose: 'send' | 'describe'): string {
  if (rules.method === 'none') return '';
  if (rules.method === 'text') {
    const text = typed.trim();
    const isGet = text.toUpperCase() === 'GET';
    if (rules.methodIs && purpose === 'send' && (isGet || (text === '' && rules.methodWhenEmpty === undefined))) {
      const choices = rules.methodChoices ? `: ${rules.methodChoices.slice(0, -1).join(', ')} or ${rules.methodChoices.at(-1)}` : '';
      const example = rules.methodExample ?? rules.methodChoices?.[0] ?? '…';
      const what = isGet ? `method: "${text}" is HTTP's method, which a request without method gets` : 'method is empty';
      throw new PrepareError(`${where}: ${what}; for ${rules.noun}, method is ${rules.methodIs}${choices}. Set it, such as method: ${example}.`);
    }
    // The kind's one declaration of what an empty method asks (DNS: A); the kind reads the method sent.
    return text || (rules.methodWhenEmpty ?? '');
  }
  const method = typed.trim().toUpperCase() || 'GET';
  if (!/^[!#$%&'*+.^_`|~0-9A-Z-]+$/i.test(method)) throw new PrepareError(`${where}: "${method}" is not a valid HTTP method.`);
  return method;
}

/** What every kind's prepared request carries: the kind, its stream settings and option section, Basic credentials, the path. */
function addCommonParts(prepared: PreparedRequest, input: PrepareInput, rules: KindRules, auth: Auth, fill: (text: string) => string): void {
  const { request } = input;
  prepared.kind = rules.kind;
  // The event a stream stops at is a name like the topic or event it answers, so it takes variables as they do.
  const stream = request.settings?.stream;
  if (stream) prepared.stream = stream.event === undefined ? stream : { ...stream, event: fill(stream.event) };
  if (rules.options) prepared.options = fillKindOptions(rules.options, request[rules.options], fill);
  if (auth.type === 'basic') prepared.basic = { username: fill(String(auth.username ?? '')), password: fill(String(auth.password ?? '')) };
  if (input.path) prepared.path = input.path;
}

/**
 * Kinds whose `url` is a name or a command, not a URL (DNS names, MCP programs): filled as typed,
 * with the request's headers, auth and body prepared the same way as for the others.
 */
async function prepareNamed(
  input: PrepareInput,
  options: PrepareOptions,
  rules: KindRules,
  parts: { method: string; target: string; fill: (text: string) => string; settings: PreparedSettings; where: string },
): Promise<PreparedRequest> {
  const { request, workspace } = input;
  const { fill, where } = parts;
  if (parts.target === '') throw new PrepareError(`${where}: the URL is empty; give the name, address or command ${rules.noun} goes to.`);
  const app = options.settings ?? DEFAULT_SETTINGS;
  const { body } = await prepareBody(request.body, { root: workspace.root, allowFilesOutside: options.allowFilesOutside ?? app.filesOutsideWorkspace, fill, where, ...(options.face ? { face: options.face } : {}) });
  // A command typed where a URL could be (MCP over stdio) starts a program, which gets no HTTP headers.
  const program = rules.schemes.length > 0;
  const unsent = program
    ? (name: string) => `${name} auth is not sent by ${rules.noun} that starts a program (a command instead of a URL): a program gets no HTTP headers. Give it the credential in its environment or command line, and set this request's auth to none (or inherit).`
    : (name: string) => unsentByKind(name, rules);
  const auth = authSent(effectiveAuth(request, input.folders, workspace.file), program ? 'none' : rules.sendsAuth, where, unsent);
  const prepared: PreparedRequest = { method: parts.method, url: parts.target, headers: [], body, authType: auth.type, settings: parts.settings };
  addCommonParts(prepared, input, rules, auth, fill);
  return prepared;
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray % that is not an escape: sent as typed
  }
}
