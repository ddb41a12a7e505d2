/**
 * Copy as cURL or code (spec 4.7). One prepared request (the same one the HTTP client
 * sends) goes through `shapeRequest` for the target's library rules, then the target's
 * one-file renderer turns it into code.
 */
import type { PreparedRequest } from '../request/prepared.js';
import { shapeRequest } from './normalize.js';
import type { Target } from './target.js';
import { TARGETS } from './targets/index.js';

export type { Target, LibraryRules } from './target.js';
export type { CodeRequest, CodeBody, CodeHeader, CodePart } from './normalize.js';
export { shapeRequest } from './normalize.js';
export { TARGETS } from './targets/index.js';

/** An unknown language, library or target: the message lists the choices. */
export class TargetError extends Error {
  override name = 'TargetError';
}

export interface TargetInfo {
  id: string;
  lang: string;
  lib: string;
  language: string;
  library: string;
  platform: string;
  /** The library used when `--lib` is not given. */
  default: boolean;
}

/** The library of a language used when none is named: cURL for the platform's shell, else the first. */
function defaultLib(lang: string, platform: NodeJS.Platform): string | undefined {
  if (lang === 'curl') return platform === 'win32' ? 'cmd' : 'bash';
  return TARGETS.find((t) => t.lang === lang)?.lib;
}

/** Every language and library, in the order of the spec's table. */
export function listTargets(platform: NodeJS.Platform = process.platform): TargetInfo[] {
  return TARGETS.map((t) => ({
    id: t.id,
    lang: t.lang,
    lib: t.lib,
    language: t.language,
    library: t.library,
    platform: t.platform,
    default: defaultLib(t.lang, platform) === t.lib,
  }));
}

const LANG_ALIASES: Record<string, string> = {
  js: 'javascript',
  node: 'javascript',
  py: 'python',
  golang: 'go',
  'c#': 'csharp',
  cs: 'csharp',
  dotnet: 'csharp',
  kt: 'kotlin',
  rb: 'ruby',
  rs: 'rust',
  pwsh: 'powershell',
  shell: 'curl',
  libcurl: 'c',
};

function key(text: string): string {
  return text.trim().toLowerCase().replace(/[\s_]+/g, '-');
}

/** Finds a target by language and optional library, as typed on the command line (case-insensitive, with aliases). */
export function resolveTarget(lang: string, lib?: string, platform: NodeJS.Platform = process.platform): Target {
  const langKey = LANG_ALIASES[key(lang)] ?? key(lang);
  const candidates = TARGETS.filter((t) => t.lang === langKey || key(t.language) === langKey);
  if (candidates.length === 0) {
    const langs = [...new Set(TARGETS.map((t) => t.lang))].join(', ');
    throw new TargetError(`Unknown language "${lang}". Choose one of: ${langs} (ferry export --list shows the libraries).`);
  }
  const wanted = lib === undefined ? defaultLib(candidates[0]!.lang, platform) : key(lib);
  const found = candidates.find((t) => t.lib === wanted || key(t.library) === wanted || t.id === wanted);
  if (!found) {
    const libs = candidates.map((t) => t.lib).join(', ');
    throw new TargetError(`Unknown library "${lib}" for ${candidates[0]!.language}. Choose one of: ${libs}.`);
  }
  return found;
}

/**
 * The code for one prepared request and one target (a Target or its id such as `python/requests`).
 * `notes` are extra comment lines for the top of the code (without comment markers).
 */
export function toCode(request: PreparedRequest, target: Target | string, notes: readonly string[] = []): string {
  const t = typeof target === 'string' ? TARGETS.find((x) => x.id === target) : target;
  if (!t) throw new TargetError(`Unknown code target "${String(target)}". Known targets: ${TARGETS.map((x) => x.id).join(', ')}.`);
  const shaped = shapeRequest(request, t.rules, t.tool);
  if (notes.length) shaped.comments.push(...notes);
  return t.render(shaped);
}

export interface ExportOptions {
  lang: string;
  lib?: string;
  platform?: NodeJS.Platform;
  /** Extra comment lines for the top of the code. */
  notes?: readonly string[];
}

/** What `ferry export` prints: the request (already prepared with or without substitution) as code. */
export function exportRequest(request: PreparedRequest, options: ExportOptions): { target: Target; code: string } {
  const target = resolveTarget(options.lang, options.lib, options.platform);
  return { target, code: toCode(request, target, options.notes) };
}

/** What `ferry export --list` prints: one line per library, the default marked. */
export function formatTargetList(platform: NodeJS.Platform = process.platform): string {
  const rows = listTargets(platform);
  const width = Math.max(...rows.map((r) => `${r.lang} --lib ${r.lib}`.length));
  return rows
    .map((r) => `${`${r.lang} --lib ${r.lib}`.padEnd(width)}  ${r.language}: ${r.library} (${r.platform})${r.default ? ' [default]' : ''}`)
    .join('\n') + '\n';
}
