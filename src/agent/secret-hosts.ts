/**
 * Where `ferry mcp` lets secret values go. An agent sees `***` for a secret, but a request it
 * writes (inline, or a file it edits) could still carry the value to any host: a prompt injected
 * into what the agent reads only has to ask. So a send from `ferry mcp` that carries a secret
 * value goes only to a host the user chose: one the workspace's saved requests (with the
 * workspace's and each environment's variables) or its variables' URLs named when `ferry mcp`
 * started, before the agent could edit anything in this session. Anything else is refused before
 * a byte is sent, saying how the user allows it.
 */
import type { WorkspaceData } from '../appdata/index.js';
import { loadVariableSnapshot } from '../request/index.js';
import { render } from '../template/index.js';
import { RunVariables, SecretMask } from '../variables/index.js';
import { maskDeep } from '../variables/workspace-mask.js';
import type { Workspace } from '../workspace/index.js';
import { walkRequests } from '../workspace/tree.js';
import type { SendGuard } from '../runner/index.js';

/** How many of the chosen hosts a refusal names. */
const NAMED_HOSTS = 10;

/**
 * The host (and port, when not the scheme's default) a URL goes to, in lower case; a URL without
 * a scheme (`localhost:50051`, as gRPC requests are written) is read as `host:port`. Empty when
 * there is none (an MCP program over stdio, a URL that does not parse).
 */
export function hostOf(url: string): string {
  const text = url.trim();
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `tcp://${text}`).host.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * The hosts the workspace's saved requests and its variables name: each saved request's URL filled
 * with the workspace's variables and with each environment's, and every variable value that is a
 * URL. Read once, when `ferry mcp` starts.
 */
export async function chosenHosts(ws: Workspace, data: WorkspaceData): Promise<Set<string>> {
  const hosts = new Set<string>();
  const add = (url: string) => {
    const host = hostOf(url);
    // A placeholder nothing fills (`{{baseUrl}}` without an environment) names no host.
    if (host !== '' && !/[{}]/.test(host)) hosts.add(host);
  };
  const requests = [...walkRequests(ws.tree)].map(({ node }) => node.request.url);
  for (const environment of [undefined, ...ws.environments.map((e) => e.id)]) {
    const variables = new RunVariables(await loadVariableSnapshot(ws, data, environment), new Map()).scope();
    for (const url of requests) {
      try {
        add(render(url, 'request', { variables }));
      } catch {
        // A URL whose placeholders do not render names no host.
      }
    }
  }
  const values = [...ws.file.variables, ...ws.environments.flatMap((e) => e.value.variables)].filter((v) => !v.secret);
  for (const v of values) if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(v.value ?? '')) add(v.value!);
  return hosts;
}

/** True when any text in `value` holds a secret value (as written, URL-encoded, or inside Base64). */
function carriesSecret(value: unknown, mask: SecretMask): boolean {
  // Bytes (a body, a form part) are read as text: a secret filled into them is there as written.
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
      const json = v as { type?: unknown; data?: unknown } | null;
      return json !== null && typeof json === 'object' && json.type === 'Buffer' && Array.isArray(json.data) ? Buffer.from(json.data as number[]).toString('utf8') : v;
    }) ?? '';
  } catch {
    return true; // not readable as data (a cycle): not known to be free of secrets
  }
  return JSON.stringify(maskDeep(JSON.parse(text) as unknown, mask)) !== text;
}

/**
 * Values scripts stored that are this long or longer count: a secret turned into another form (hex,
 * a hash, Base64 of 4 characters and more) is no shorter, and shorter ones (`1`, `true`, an id)
 * would refuse any send that happens to hold them.
 */
const STORED_MIN_CHARS = 8;

/** True when `value` holds a value a script stored (as written, URL-encoded, or inside Base64), `STORED_MIN_CHARS` long or longer. */
function carriesStored(value: unknown, stored: readonly string[]): boolean {
  const mask = new SecretMask();
  for (const text of stored) if ([...text].length >= STORED_MIN_CHARS) mask.add(text);
  return mask.size > 0 && carriesSecret(value, mask);
}

/**
 * The refusal of a send that would take a secret value to a host the user did not choose, or
 * undefined to send it.
 */
export function secretGuard(hosts: ReadonlySet<string>, mask: SecretMask): SendGuard {
  return (out) => {
    if (mask.size === 0) return undefined;
    const host = hostOf(out.url);
    if (host === '' || hosts.has(host)) return undefined;
    const secret = carriesSecret(out.carried, mask);
    const stored = !secret && !out.scripted && carriesStored(out.carried, out.stored ?? []);
    if (!secret && !out.scripted && !stored) return undefined;
    const what = out.what ?? 'it';
    const why = secret
      ? `${what} would carry a secret value to ${host}`
      : out.scripted
        ? `a pre-request script ran for it, which can read secret values and change their form, and ${what} would go to ${host}`
        : `${what} carries a value a script stored in an earlier send (a script can read secret values and store them in a form no check recognizes), and would go to ${host}`;
    const known = [...hosts].sort();
    const named = known.length === 0 ? 'none' : `${known.slice(0, NAMED_HOSTS).join(', ')}${known.length > NAMED_HOSTS ? `, and ${known.length - NAMED_HOSTS} more` : ''}`;
    return `requests/${out.path} was not sent: ${why}, a host that none of this workspace's saved requests and environments used when ferry mcp started (those: ${named}). ` +
      'ferry mcp sends secret values only to hosts the user chose. Send it without secret variables, or ask the user: if they mean this host, they add a saved request or an environment variable with its URL to the workspace and restart ferry mcp.';
  };
}
