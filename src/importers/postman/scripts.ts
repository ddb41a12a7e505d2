/** Collection events to scripts (spec 2.7, 4.2): kept unchanged, unsupported members noted. */
import { SCRIPT_BREAK } from '../../model/index.js';

type Obj = Record<string, unknown>;

export interface ScriptContext {
  notes: string[];
  /** Where form-data and binary bodies name files that must be chosen again. */
  files: string[];
  /** Script locations using members Ferry lacks, by member. */
  unavailable: Map<string, string[]>;
  /** Event names skipped, with where. */
  skippedEvents: string[];
  /** Scripts switched off in the collection (`disabled: true`), kept as comments, with where. */
  disabledScripts?: string[];
  /**
   * Notes that would repeat for many places (a request setting Ferry lacks, an OAuth 2.0 redirect
   * URL): the note's head, then where. One note each for the whole import, listing the places.
   */
  grouped: GroupedNotes;
}

export type GroupedNotes = Map<string, string[]>;

export function addGrouped(grouped: GroupedNotes, head: string, place: string): void {
  grouped.set(head, [...(grouped.get(head) ?? []), place]);
}

const UNAVAILABLE: [string, RegExp][] = [
  ['sendRequest', /\bpm\.sendRequest\s*\(/],
  ['cookies', /\bpm\.cookies\b/],
  ['visualizer', /\bpm\.visualizer\b/],
  ['setTimeout', /(?<![.\w])setTimeout\s*\(/],
  ['setInterval', /(?<![.\w])setInterval\s*\(/],
];

function scriptText(script: unknown): string {
  if (!script || typeof script !== 'object') return typeof script === 'string' ? script : '';
  const exec = (script as Obj).exec;
  if (Array.isArray(exec)) return exec.map((l) => String(l ?? '')).join('\n');
  return typeof exec === 'string' ? exec : '';
}

/** Two scripts of one event on one item: Newman runs them apart, and so does Ferry with a break line between them. */
function joined(before: string | undefined, code: string): string {
  return before === undefined ? code : `${before}\n${SCRIPT_BREAK}\n${code}`;
}

export function collectScripts(events: unknown, where: string, ctx: ScriptContext): { preRequest?: string; postResponse?: string } | undefined {
  if (!Array.isArray(events)) return undefined;
  const out: { preRequest?: string; postResponse?: string } = {};
  for (const event of events) {
    if (!event || typeof event !== 'object') continue;
    const e = event as Obj;
    const listen = String(e.listen ?? '');
    const field = listen === 'prerequest' ? 'preRequest' : listen === 'test' ? 'postResponse' : undefined;
    const code = scriptText(e.script);
    if (!field) {
      if (code.trim()) ctx.skippedEvents.push(`${where} (${listen || 'unnamed'})`);
      continue;
    }
    if (!code.trim()) continue;
    const phase = listen === 'test' ? 'post-response' : 'pre-request';
    if (e.disabled === true) {
      // Newman skips a switched-off event; Ferry has no such switch, so the code stays as comments.
      const commented = ['// Switched off in the collection (disabled), so not run:', ...code.split('\n').map((l) => `// ${l}`)].join('\n');
      out[field] = joined(out[field], commented);
      (ctx.disabledScripts ??= []).push(`${where} (${phase})`);
      continue;
    }
    out[field] = joined(out[field], code);
    for (const [member, pattern] of UNAVAILABLE) {
      if (pattern.test(code)) {
        const list = ctx.unavailable.get(member) ?? [];
        list.push(`${where} (${phase})`);
        ctx.unavailable.set(member, list);
      }
    }
  }
  return out.preRequest !== undefined || out.postResponse !== undefined ? out : undefined;
}

/** The notes that summarize a whole import's scripts and files. */
export function summaryNotes(ctx: ScriptContext): string[] {
  const notes: string[] = [];
  for (const [member, places] of ctx.unavailable) {
    notes.push(`Scripts use ${member}, which Ferry's script API does not have; they will fail when run: ${list(places)}.`);
  }
  for (const [head, places] of ctx.grouped) notes.push(`${head}: ${list(places)}.`);
  if (ctx.skippedEvents.length > 0) notes.push(`Scripts of other events were skipped: ${list(ctx.skippedEvents)}.`);
  if (ctx.disabledScripts?.length) notes.push(`Scripts switched off in the collection were kept as comments and do not run: ${list(ctx.disabledScripts)}.`);
  if (ctx.files.length > 0) notes.push(`Files are not part of an export; choose them again for: ${list(ctx.files)}.`);
  return notes;
}

function list(items: string[]): string {
  return items.length <= 20 ? items.join('; ') : `${items.slice(0, 20).join('; ')} and ${items.length - 20} more`;
}
