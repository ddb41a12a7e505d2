/**
 * `ferry ls [PATH] [--kind K] [--problems [--strict]]`: prints the workspace tree (or one folder of it, or
 * one kind of request), environments, servers, load tests and file problems. Columns are lined
 * up by display width, so wide (CJK, emoji) and combining characters keep them straight.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
// Modules, not their folders' index: a listing the cache answers loads no schema, YAML parser or
// lock (docs/workspace.md, "The listing cache").
import { REQUEST_KINDS } from '../model/constants.js';
import type { RequestSummary } from '../model/index.js';
// The kind table alone: the protocols' barrel would load the HTTP client (undici), cookies and more.
import { requestKind } from '../protocols/registry.js';
import { namesFolderOnly, normalizeSelectPath, selectRequests, SelectError } from '../workspace/select.js';
import type { FolderNode, TreeNode, Warning, Workspace } from '../workspace/types.js';
import { formatWarning } from '../workspace/warning-text.js';
import { dataDir } from '../appdata/paths.js';
import { firstSymlink } from '../support/paths-inside.js';
import { fromShellPaths, openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { examples } from './examples.js';
import { paint } from './output.js';

interface LsFlags {
  json?: boolean;
  kind?: string;
  problems?: boolean;
  strict?: boolean;
}

export function registerLs(program: Command, ctx: CliContext): void {
  program
    .command('ls')
    .description('list the requests (with kind and method), environments, servers, load tests and file problems')
    .addHelpText('after', examples([["ferry ls", "the tree, environments, servers and load tests"], ["ferry ls Users --kind http", "only HTTP requests under Users/"], ["ferry ls --problems", "every file problem, path: message"], ["ferry ls --strict", "for CI: every file read whole, unknown fields too; exit 1 on any problem"], ["ferry ls --json", "as JSON"]]))
    .argument('[path]', 'only this folder (or request) under requests/')
    .option('--kind <kind>', `only requests of this kind: ${REQUEST_KINDS.join(', ')}`)
    .option('--problems', 'list every file problem (path:line:column: message), nothing else')
    .addOption(new Option('--strict', 'with --problems (implied): also the fields a run, serve or load would say are unknown (every file read whole, not from the listing cache); exit code 1 when there is any problem').implies({ problems: true }))
    .option('--json', 'print the listing as JSON')
    .action(async (wanted: string | undefined, options: LsFlags, command: Command) => {
      const kind = options.kind?.toLowerCase();
      if (kind !== undefined && !(REQUEST_KINDS as readonly string[]).includes(kind)) {
        throw new CliError(`Unknown request kind "${options.kind}". Kinds: ${REQUEST_KINDS.join(', ')}.`);
      }
      if (options.strict) {
        const problems = await strictProblems(command, ctx);
        printProblems(problems, options.json === true, ctx);
        if (problems.length > 0) ctx.exitCode = EXIT.failed;
        return;
      }
      // Problems are of the whole workspace; a folder's listing reads only that folder.
      // A listing: every file is read and checked as for a run (same warnings), but only what is shown is kept.
      // Files unchanged since the last listing come from the listing cache (docs/workspace.md).
      const cacheDir = path.join(dataDir(), LISTING_CACHE_DIR);
      // Never through a link in the data folder (docs/workspace.md): the listing goes without its cache then.
      const linked = await firstSymlink(dataDir(), cacheDir);
      if (linked) ctx.output.err(`ferry: ${linked} is a symbolic link inside the data folder, and Ferry never follows links there, so this listing read every file without its cache. Remove the link (Ferry makes the folder again at the next listing).`);
      const listingCache = linked ? undefined : { dir: cacheDir, version: rootOf(command).version() ?? 'unknown' };
      const ws = await openWorkspaceFor(command, ctx, { ...(wanted && !options.problems ? { requests: [wanted] } : {}), listing: true, ...(listingCache ? { listingCache } : {}), showsWarnings: true });
      if (options.problems) {
        printProblems(ws.warnings, options.json === true, ctx);
        return;
      }
      const tree = filterTree(subtree(ws, wanted === undefined ? undefined : fromShellPaths(ws, [wanted], ctx.cwd, 'ls')[0]), kind);
      if (options.json) {
        ctx.output.out(JSON.stringify({
          name: ws.file.name,
          root: ws.root,
          requests: flatten(tree),
          environments: ws.environments.map((e) => ({ id: e.id, name: e.value.name })),
          servers: ws.servers.map((s) => ({ id: s.id, name: s.value.name, kind: s.value.kind, port: s.value.port })),
          loadtests: ws.loadtests.map((l) => ({ id: l.id, name: l.value.name })),
          warnings: ws.warnings,
        }, null, 2));
        return;
      }
      const c = paint(ctx.output);
      // A filtered listing is about requests: the rest of the workspace is left out.
      const whole = wanted === undefined && kind === undefined;
      const ids = whole ? [...ws.environments, ...ws.servers, ...ws.loadtests].map((e) => e.id) : [];
      const width = await displayWidthFor(tree, ids);
      const lines: string[] = [c.bold(ws.file.name || ws.root)];
      treeLines(tree, c, width, lines);
      if (whole && ws.environments.length) lines.push('', c.bold('Environments'), ...table(ws.environments.map((e) => [e.id, e.value.name]), width, c.dim));
      if (whole && ws.servers.length) lines.push('', c.bold('Servers'), ...table(ws.servers.map((s) => [s.id, s.value.kind, s.value.name]), width, c.dim));
      if (whole && ws.loadtests.length) lines.push('', c.bold('Load tests'), ...table(ws.loadtests.map((l) => [l.id, l.value.name]), width, c.dim));
      if (ws.warnings.length) {
        const shown = ws.warnings.slice(0, 20);
        lines.push('', c.yellow(c.bold('Warnings')), ...shown.map((w) => `  ${c.yellow(formatWarning(w))}`));
        if (ws.warnings.length > shown.length) lines.push(`  ${c.dim(`(and ${ws.warnings.length - shown.length} more: ferry ls --problems lists every one)`)}`);
      }
      ctx.output.out(lines.join('\n'));
    });
}

/** The listing caches' folder in the data folder (one file per workspace folder). */
export const LISTING_CACHE_DIR = 'listing-cache';

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/**
 * `ferry ls --strict`: the workspace read whole, as a run reads it (no listing cache, which keeps
 * only what a listing shows), and each file's unknown fields added to the file problems. The
 * model's declarations load only here: a plain `ferry ls` stays as it was.
 */
async function strictProblems(command: Command, ctx: CliContext): Promise<Warning[]> {
  const ws = await openWorkspaceFor(command, ctx, { showsWarnings: true });
  const { unknownFieldsWarnings } = await import('../workspace/unknown-fields.js');
  // By file, as the workspace's own: a file's other problems before its unknown fields (a stable sort).
  return [...ws.warnings, ...unknownFieldsWarnings(ws)].sort((a, b) => a.file.localeCompare(b.file));
}

/** `ferry ls --problems`: each file's problems, every one of them (a warning names only its first). */
function printProblems(warnings: readonly Warning[], json: boolean, ctx: CliContext): void {
  if (json) {
    ctx.output.out(JSON.stringify(warnings.map((w) => ({ ...w, problems: w.problems ?? [w.message] })), null, 2));
    return;
  }
  if (warnings.length === 0) {
    ctx.output.out('No file problems.');
    return;
  }
  const c = paint(ctx.output);
  const lines: string[] = [];
  for (const w of warnings) {
    if (!w.problems) {
      lines.push(c.yellow(formatWarning(w)));
      continue;
    }
    lines.push(c.yellow(`${w.file}${w.line ? `:${w.line}:${w.column ?? 1}` : ''}: ${w.problems.length} problems`));
    for (const problem of w.problems) lines.push(`  ${c.yellow(problem)}`);
  }
  // Files, not warnings: one file may have several (a problem and its unknown fields).
  const files = new Set(warnings.map((w) => w.file)).size;
  lines.push('', `${files} file${files === 1 ? '' : 's'} with problems.`);
  ctx.output.out(lines.join('\n'));
}

/** The tree as a listing holds it: each request's summary. */
type Listed = FolderNode<RequestSummary>;

/** The folder (or the one request) `wanted` names, as a tree of its own. */
function subtree(ws: Workspace<RequestSummary>, wanted: string | undefined): Listed {
  if (wanted === undefined || ['', '.'].includes(normalizeSelectPath(wanted))) return ws.tree;
  try {
    selectRequests(ws.tree, [wanted], { warnings: ws.warnings });
  } catch (error) {
    if (error instanceof SelectError) throw new CliError(error.message);
    throw error;
  }
  const target = normalizeSelectPath(wanted).toLowerCase();
  const folderOnly = namesFolderOnly(wanted);
  const find = (folder: Listed): Listed | undefined => {
    for (const child of folderOnly ? [] : folder.children) {
      const lower = child.path.toLowerCase();
      if (child.type !== 'folder' && (lower === target || lower === `${target}.yaml`)) return { ...folder, children: [child] };
    }
    for (const child of folder.children) {
      if (child.type !== 'folder') continue;
      if (child.path.toLowerCase() === target) return { ...folder, children: [child] };
      if (target.startsWith(`${child.path.toLowerCase()}/`)) {
        const inner = find(child);
        if (inner) return { ...folder, children: [inner.path === child.path ? inner : { ...child, children: [inner] }] };
      }
    }
    return undefined;
  };
  return find(ws.tree) ?? ws.tree;
}

/** Only requests of `kind` (broken files too, they may be of any kind); folders left empty go. */
function filterTree(folder: Listed, kind: string | undefined): Listed {
  if (kind === undefined) return folder;
  const children: TreeNode<RequestSummary>[] = [];
  for (const child of folder.children) {
    if (child.type === 'folder') {
      const inner = filterTree(child, kind);
      if (inner.children.length) children.push(inner);
    } else if (child.type === 'broken' || child.request.kind === kind) {
      children.push(child);
    }
  }
  return { ...folder, children };
}

type Paint = ReturnType<typeof paint>;

/** Columns a text takes on a terminal. */
type DisplayWidth = (text: string) => number;

/**
 * The display width of the texts a listing lines up (names, paths, tags, ids): their length when
 * all are printable ASCII (most workspaces; string-width is slow on 30,000 rows, and costs about
 * 100 ms just to load), else string-width's for those that are not.
 */
async function displayWidthFor(tree: Listed, ids: readonly string[]): Promise<DisplayWidth> {
  if (ids.every(isPrintableAscii) && allPrintableAscii(tree)) return textLength;
  const { default: stringWidth } = await import('string-width');
  return (text) => (isPrintableAscii(text) ? text.length : stringWidth(text));
}

/** The display width of printable ASCII: one column a character. */
const textLength: DisplayWidth = (text) => text.length;

/** Only printable ASCII (space to `~`). A loop, not a regular expression: 120,000 short texts in `ferry ls`. */
function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function allPrintableAscii(folder: Listed): boolean {
  for (const child of folder.children) {
    if (!isPrintableAscii(child.path)) return false;
    if (child.type === 'folder' && !(isPrintableAscii(child.name) && allPrintableAscii(child))) return false;
    if (child.type === 'request' && !(isPrintableAscii(child.request.name) && isPrintableAscii(tagOf(child.request)))) return false;
  }
  return true;
}

const NOT_IN_SPEC = '(not in spec)';

/** A request's method/kind tag (`GET`, `WS`, …). */
function tagOf(request: RequestSummary): string {
  return requestKind(request.kind).tag(request.method);
}

/**
 * Rows of the tree: folders as headings, requests as tag / name / path, names padded to one column.
 * Two walks, no row objects: the first finds the name column's width, the second writes each line
 * once (30,000 rows in `ferry ls`: fewer objects for the garbage collector).
 */
function treeLines(tree: Listed, c: Paint, displayWidth: DisplayWidth, lines: string[]): void {
  const tagWidth = widestTag(tree, displayWidth, 7);
  const brokenPad = ' '.repeat(tagWidth);
  // The plain head of a request's row (what its width is measured on).
  const plainName = (r: RequestSummary) => (r.openapi?.removed === true && !c.isColorSupported ? `${r.name} ${NOT_IN_SPEC}` : r.name);
  const pad = (tag: string) => ' '.repeat(tagWidth - displayWidth(tag));
  // Printable ASCII: a row's width is its parts' lengths added, with no text built to measure.
  const ascii = displayWidth === textLength;
  const requestHeadWidth = (indent: string, r: RequestSummary, tag: string) =>
    ascii ? indent.length + tagWidth + 1 + plainName(r).length : displayWidth(`${indent}${tag}${pad(tag)} ${plainName(r)}`);
  const widest = (folder: Listed, indent: string, width: number): number => {
    for (const child of folder.children) {
      if (child.type === 'folder') {
        if (hasPathColumn(child)) width = columnWidth(width, displayWidth(`${indent}${child.name}/`));
        width = widest(child, `${indent}  `, width);
      } else if (child.type === 'request') {
        const r = child.request;
        width = columnWidth(width, requestHeadWidth(indent, r, ascii ? '' : tagOf(r)));
      } else {
        width = columnWidth(width, displayWidth(`${indent}!${brokenPad}${child.path}`));
      }
    }
    return width;
  };
  const width = widest(tree, '', 0);
  const padTo = (headWidth: number) => ' '.repeat(Math.max(0, width - headWidth));
  const write = (folder: Listed, indent: string) => {
    for (const child of folder.children) {
      if (child.type === 'folder') {
        // The folder's path too when it differs from its name (`Petstore 2/` for a second `Petstore`).
        const head = `${indent}${c.bold(`${child.name}/`)}`;
        lines.push(hasPathColumn(child) ? `${head}${padTo(displayWidth(`${indent}${child.name}/`))}  ${c.dim(`${child.path}/`)}` : head);
        write(child, `${indent}  `);
      } else if (child.type === 'request') {
        const r = child.request;
        const tag = tagOf(r);
        const tagPad = pad(tag);
        // No longer in its OpenAPI document (3): struck through on a terminal, said in words elsewhere.
        const gone = r.openapi?.removed === true;
        const name = gone && c.isColorSupported ? c.strikethrough(r.name) : plainName(r);
        lines.push(`${indent}${c.cyan(tag)}${tagPad} ${name}${padTo(requestHeadWidth(indent, r, tag))}  ${c.dim(child.path)}`);
      } else {
        lines.push(`${indent}${c.yellow('!')}${brokenPad}${child.path}${padTo(displayWidth(`${indent}!${brokenPad}${child.path}`))}  ${c.yellow(child.warning.message)}`);
      }
    }
  };
  write(tree, '');
}

/** A folder's row shows its path when the path's last part is not its name. */
function hasPathColumn(folder: Listed): boolean {
  return folder.path.slice(folder.path.lastIndexOf('/') + 1) !== folder.name;
}

/** The widest tag of the tree's requests (at least `widest`). */
function widestTag(folder: Listed, displayWidth: DisplayWidth, widest: number): number {
  for (const child of folder.children) {
    if (child.type === 'folder') widest = widestTag(child, displayWidth, widest);
    else if (child.type === 'request') widest = Math.max(widest, displayWidth(tagOf(child.request)));
  }
  return widest;
}

/**
 * A padded column is as wide as its widest cell up to this: one 200-character name (a generated
 * operation name) no longer pushes every other row's next column off the screen; its own row goes
 * on past the column, whole (never cut: the listing is also read by scripts and grep).
 */
const MAX_COLUMN = 60;

/** A column's width so far with one more cell: cells wider than MAX_COLUMN do not widen it. */
function columnWidth(width: number, cell: number): number {
  return cell > MAX_COLUMN ? width : Math.max(width, cell);
}

/** Rows of plain columns, each but the last padded to its widest cell (at most MAX_COLUMN); `style` paints every cell after the first. */
function table(rows: ReadonlyArray<readonly string[]>, displayWidth: DisplayWidth, style: (text: string) => string = (text) => text): string[] {
  const widths = rows[0]!.map((_, column) => rows.reduce((width, row) => columnWidth(width, displayWidth(row[column]!)), 0));
  return rows.map((row) => {
    const cells = row.map((cell, column) => (column === row.length - 1 ? cell : `${cell}${' '.repeat(Math.max(0, widths[column]! - displayWidth(cell)))}`));
    return `  ${cells[0]}${cells.length > 1 ? `  ${style(cells.slice(1).join(' '))}` : ''}`;
  });
}

function flatten(folder: Listed): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const child of folder.children) {
    if (child.type === 'folder') out.push(...flatten(child));
    else if (child.type === 'request') out.push({ path: child.path, name: child.request.name, kind: child.request.kind, method: child.request.method, ...(child.request.openapi?.removed === true ? { removedFromSpec: true } : {}) });
    else out.push({ path: child.path, broken: true, warning: child.warning.message, ...(child.warning.code ? { code: child.warning.code } : {}) });
  }
  return out;
}
