/**
 * `ferry update` on a mock server generated with `--as-server` (issue 22): routes are regenerated
 * from the new document with the three-way rule of spec 4.5, field by field. A route's status,
 * headers, body and path take the new document's value only where the file still has what the
 * old document gave; edited fields stay. Names, delays, faults, match conditions and routes added
 * by hand are never touched. New operations get routes, placed literal-before-parameter; routes
 * of removed operations go unless the user edited them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deepEqual, parseResource, segmentParts, type MockRoute, type ServerFile } from '../../model/index.js';
import { checkNoSymlinks, readResource, resourceText, SERVERS_DIR, SPECS_DIR, uniqueFileName, writeFileAtomic, yamlTooLarge } from '../../workspace/index.js';
import { isLinkError, readFileNoFollow } from '../../support/read-no-follow.js';
import { ImportError } from '../types.js';
import { decide, sameGeneratedJson } from './update/three-way.js';
import { changeLines, newNotes, previewHead, previewItem, previewNotes, previewSection, type PreviewItem, type PreviewStyle } from './update/preview.js';
import { buildMockRoutes, pathShape, type GeneratedRoute } from './mock-server.js';
import { parseSpecText, requireSpec } from './parse.js';
import { winsOver } from './route-order.js';

/** Fields an update may change; the rest of a route is the user's. */
const ROUTE_FIELDS = ['path', 'status', 'headers', 'body'] as const;
type RouteField = (typeof ROUTE_FIELDS)[number];

export interface ServerUpdatePlan {
  /** `servers/ID.yaml`. */
  file: string;
  name: string;
  from: string;
  warnings: string[];
  /** Routes by `METHOD path` as the server file writes them, and name. */
  added: PreviewItem[];
  changed: (PreviewItem & { update: string[]; kept: string[] })[];
  removed: PreviewItem[];
  /** Routes of removed operations kept because they were edited. */
  keptRemoved: PreviewItem[];
  documentChanged: boolean;
  upToDate: boolean;
  /** Notes from reading the new document that the old one did not give already. */
  notes: string[];
  writes: { file: string; text: string }[];
  /** The old document, when the new version is kept under another name (the other format). */
  deletes: string[];
}

/** The server file named by `servers/ID.yaml`, `ID.yaml` or `ID`, when it exists. */
export function serverFileOf(argument: string): string {
  const id = argument.replace(/^servers\//, '').replace(/\.yaml$/, '');
  return `${SERVERS_DIR}/${id}.yaml`;
}

export async function planServerUpdate(root: string, input: { server: string; text: string; from: string }): Promise<ServerUpdatePlan> {
  const file = serverFileOf(input.server);
  const id = file.slice(SERVERS_DIR.length + 1, -'.yaml'.length);
  if (id === '' || id.startsWith('.') || /[/\\]/.test(id)) {
    throw new ImportError(`"${input.server}" is not a server file under ${SERVERS_DIR}/: give the server's id (ID, ID.yaml or ${SERVERS_DIR}/ID.yaml).`);
  }
  // The file is read and written again: never through a link (a linked servers/ leads elsewhere).
  const linked = await checkNoSymlinks(root, file);
  if (linked) throw new ImportError(`Cannot update ${file}: ${linked}.`);
  const absolute = path.join(root, file);
  const source = await readFileNoFollow(absolute, 'utf8').catch(() => undefined);
  if (source === undefined) throw new ImportError(`There is no server file ${file}.`);
  const read = await readResource('server', absolute, file);
  if (!read.ok) throw new ImportError(`${file} does not parse: ${read.warning.message}. Fix it, then update again.`);
  const server = read.value;
  const spec = server.http?.openapi?.spec;
  if (spec === undefined || spec === '') throw new ImportError(`${file} was not generated from an OpenAPI document (it has no http.openapi.spec), so it cannot be updated from one.`);
  const parts = spec.split('/');
  const notUnderSpecs = () => new ImportError(`${file} links its document as "${spec}", which is not a file under specs/; fix http.openapi.spec, then update again.`);
  if (parts[0] !== SPECS_DIR || parts.includes('..') || (await checkNoSymlinks(root, spec))) throw notUnderSpecs();

  const newText = parseSpecText(input.text, input.from, 'update');
  const parsed = requireSpec(newText.data, input.from, { text: input.text });
  const next = buildMockRoutes(parsed.root, parsed.info);
  const warnings: string[] = [];
  // Opened without following a link (O_NOFOLLOW): one swapped in since the check above is refused as it is.
  const oldText = await readFileNoFollow(path.join(root, spec), 'utf8').catch((error: unknown) => (isLinkError(error) ? Promise.reject(notUnderSpecs()) : undefined));
  let old: GeneratedRoute[] | undefined;
  let oldGenerated: ReadonlySet<GeneratedRoute> = new Set();
  let oldNotes: string[] | undefined;
  if (oldText === undefined) warnings.push(`The old document ${spec} is missing, so Ferry cannot tell which routes you edited: paths, statuses, headers and bodies take the new version.`);
  else {
    try {
      const oldParsed = parseSpecText(oldText, spec);
      const { root: oldRoot, info } = requireSpec(oldParsed.data, spec);
      ({ routes: old, generatedBodies: oldGenerated, notes: oldNotes } = buildMockRoutes(oldRoot, info));
    } catch {
      warnings.push(`The old document ${spec} cannot be read, so Ferry cannot tell which routes you edited: paths, statuses, headers and bodies take the new version.`);
    }
  }

  const key = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${pathShape(route.path)}`;
  const oldByKey = new Map((old ?? []).map((route) => [key(route), normalize(route)]));
  // Keys of old routes whose body was generated from the schema: an earlier Ferry may have generated it differently.
  const oldGeneratedKeys = new Set([...oldGenerated].map(key));
  const newByKey = new Map(next.routes.map((route) => [key(route), normalize(route)]));
  // A document without operations (a wrong file, components only) would remove every generated
  // route: refused, as a folder update refuses it.
  const generatedRoutes = (server.http?.routes ?? []).filter((route) => old === undefined || oldByKey.has(key(route))).length;
  if (next.routes.length === 0 && generatedRoutes > 0) {
    throw new ImportError(`${input.from} has no operations (no \`paths\` with methods), so updating ${file} from it would remove all ${generatedRoutes} of its generated routes. Check that this is the right document. Nothing was written.`);
  }
  const plan: ServerUpdatePlan = {
    file, name: server.name, from: input.from, warnings, added: [], changed: [], removed: [], keptRemoved: [],
    documentChanged: oldText !== input.text, upToDate: false, notes: newNotes(next.notes, oldNotes), writes: [], deletes: [],
  };
  // The new version in the other format (YAML after JSON) is kept under the matching extension,
  // as a folder update keeps it, not written as YAML into a .json file.
  const specPath = await keptAs(root, spec, newText.format);
  if (specPath !== spec) {
    plan.documentChanged = true;
    plan.deletes.push(path.join(root, spec));
  }

  const routes: MockRoute[] = [];
  const seen = new Set<string>();
  for (const saved of server.http?.routes ?? []) {
    const routeKey = key(saved);
    const before = oldByKey.get(routeKey);
    const after = newByKey.get(routeKey);
    const generated = before !== undefined || (old === undefined && after !== undefined);
    if (!generated || seen.has(routeKey)) {
      routes.push(saved); // added by hand (or a second route for one operation): the user's
      continue;
    }
    seen.add(routeKey);
    const label = routeItem(saved);
    // A body that differs from the old document's only where an earlier Ferry generated other placeholders is no edit.
    const imported = (field: RouteField, value: unknown) => field === 'body' && oldGeneratedKeys.has(routeKey) && before !== undefined && sameGeneratedJson(value, before.body);
    if (after === undefined) {
      if (before !== undefined && ROUTE_FIELDS.every((field) => deepEqual(saved[field], before[field]) || imported(field, saved[field]))) plan.removed.push(label);
      else {
        plan.keptRemoved.push(label);
        routes.push(saved);
      }
      continue;
    }
    const decision = decide<RouteField>(ROUTE_FIELDS, pick(saved), pick(after), before === undefined ? undefined : pick(before), imported);
    const updated: MockRoute = { ...saved };
    for (const field of decision.update) (updated as Record<RouteField, unknown>)[field] = after[field];
    // A renamed path parameter (/pets/:petId → /pets/:id, the same requests) keeps its name where
    // the answer uses it ({{request.params.petId}}): renamed, the answer would lose the value.
    if (decision.update.includes('path') && answerUsesDroppedParams(updated, saved.path, after.path)) {
      updated.path = saved.path;
      decision.update = decision.update.filter((field) => field !== 'path');
      decision.kept.push('path');
    }
    if (decision.update.length > 0 || decision.kept.length > 0) plan.changed.push({ ...routeItem(updated), update: decision.update, kept: decision.kept });
    routes.push(updated);
  }
  for (const route of next.routes) {
    const routeKey = key(route);
    if (seen.has(routeKey) || (server.http?.routes ?? []).some((saved) => key(saved) === routeKey)) continue;
    const at = routes.findIndex((earlier) => winsOver(route, { method: earlier.method.toUpperCase(), path: earlier.path }));
    const made = normalize(route);
    if (at < 0) routes.push(made);
    else routes.splice(at, 0, made);
    plan.added.push(routeItem(made));
  }

  const updated: ServerFile = { ...server, http: { ...server.http!, routes, openapi: { ...server.http!.openapi!, spec: specPath } } };
  const text = resourceText('server', updated, source);
  // Nor one too big to read back (spec 8.1): the server would vanish from the workspace.
  const tooLarge = yamlTooLarge(file, text);
  if (tooLarge) throw new ImportError(`Not updated: ${tooLarge} Nothing was written.`);
  if (text !== source) plan.writes.push({ file: absolute, text });
  if (plan.documentChanged) plan.writes.push({ file: path.join(root, specPath), text: input.text });
  plan.upToDate = plan.writes.length === 0;
  return plan;
}

/** Writes the plan: the document, then the server file (a running server reloads on its file). */
export async function applyServerUpdate(plan: ServerUpdatePlan): Promise<void> {
  for (const write of [...plan.writes].reverse()) await writeFileAtomic(write.file, write.text);
  for (const file of plan.deletes) await fs.rm(file, { force: true });
}

/** The preview, in the layout of a folder's (update/preview.ts): the same sections, order and columns. */
export function formatServerPreview(plan: ServerUpdatePlan, style?: PreviewStyle): string {
  const lines = previewHead(`Update "${plan.name}" (${plan.file}) from ${plan.from}`, plan.warnings, style);
  if (plan.upToDate) {
    lines.push('The server already matches this version.');
    return lines.join('\n');
  }
  const items = (title: string, sign: string, list: PreviewItem[]) => {
    if (list.length === 0) return;
    previewSection(lines, title, list.length, style);
    for (const item of list) lines.push(previewItem(sign, item, style));
  };
  items('Added', style?.green('+') ?? '+', plan.added);
  if (plan.changed.length > 0) {
    previewSection(lines, 'Changed', plan.changed.length, style);
    for (const change of plan.changed) lines.push(...changeLines(previewItem('~', change, style), change, style));
  }
  items('No longer in the spec (route removed)', style?.red('-') ?? '-', plan.removed);
  items('No longer in the spec (kept: you edited the route)', style?.red('-') ?? '-', plan.keptRemoved);
  if (plan.added.length + plan.changed.length + plan.removed.length + plan.keptRemoved.length === 0) lines.push('', 'No route changes.');
  if (plan.documentChanged) lines.push('', 'The kept document is replaced by this version.');
  previewNotes(lines, plan.notes, style);
  return lines.join('\n');
}

/**
 * Whether the route's answer (body, header values) uses a path parameter of `before` that `after`
 * no longer has, where both paths match the same requests (only parameter names differ).
 */
function answerUsesDroppedParams(route: MockRoute, before: string, after: string): boolean {
  if (pathShape(before) !== pathShape(after)) return false;
  const names = (routePath: string) => routePath.split('/').flatMap((segment) => (segmentParts(segment) ?? []).flatMap((part) => (typeof part === 'string' ? [] : [part.param])));
  const kept = new Set(names(after));
  const dropped = names(before).filter((name) => !kept.has(name));
  if (dropped.length === 0) return false;
  const answer = [route.body ?? '', ...(route.headers ?? []).map((header) => header.value)].join('\n');
  return dropped.some((name) => new RegExp(`request\\.params\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$-])`).test(answer));
}

/** A route as the preview lists it: `GET /pets/:petId` and its name. */
function routeItem(route: { method?: string; path: string; name?: string }): PreviewItem {
  return { operation: `${(route.method ?? '*').toUpperCase()} ${route.path}`, name: route.name ?? '' };
}

/** Where the new version is kept: `spec` when its extension fits the format, else `specs/NAME.json|yaml` (a free name). */
async function keptAs(root: string, spec: string, format: 'json' | 'yaml'): Promise<string> {
  if (format === 'json' ? /\.json$/i.test(spec) : /\.ya?ml$/i.test(spec)) return spec;
  const base = path.posix.basename(spec).replace(/\.(json|ya?ml)$/i, '');
  const taken = await fs.readdir(path.join(root, SPECS_DIR)).catch(() => [] as string[]);
  const free = taken.some((name) => name.toLowerCase() === `${base}.${format}`.toLowerCase()) ? uniqueFileName(base, taken.map((name) => name.replace(/\.(json|ya?ml)$/i, ''))) : base;
  return `${SPECS_DIR}/${free}.${format}`;
}

function normalize(route: GeneratedRoute): MockRoute {
  const outcome = parseResource('server', { name: 'x', http: { routes: [route] } });
  if (!outcome.ok) throw new Error(`A generated route does not fit the format: ${outcome.problems[0]?.message}`);
  return outcome.value.http!.routes[0]!;
}

function pick(route: MockRoute): Record<RouteField, unknown> {
  return { path: route.path, status: route.status, headers: route.headers, body: route.body };
}
