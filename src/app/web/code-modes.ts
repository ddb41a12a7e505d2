/**
 * The highlighting mode of each Copy as code target, of the body editor's XML and HTML, and of
 * the response viewer's bodies (JSON, XML, HTML, JavaScript, CSS), loaded when that language is
 * first shown (dynamic imports: the page's first load carries none of them). Windows cmd, and a
 * target without a mode here, are shown as plain text.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';
import type { Extension } from '@codemirror/state';

type Load = () => Promise<Extension>;

/** A CodeMirror 5 mode from @codemirror/legacy-modes. */
const legacy = (load: () => Promise<StreamParser<unknown>>): Load => async () => StreamLanguage.define(await load());

const shell = legacy(async () => (await import('@codemirror/legacy-modes/mode/shell')).shell);
const powershell = legacy(async () => (await import('@codemirror/legacy-modes/mode/powershell')).powerShell);
const markup = (pick: (m: typeof import('@codemirror/legacy-modes/mode/xml')) => StreamParser<unknown>) =>
  legacy(async () => pick(await import('@codemirror/legacy-modes/mode/xml')));
const clike = (pick: (m: typeof import('@codemirror/legacy-modes/mode/clike')) => StreamParser<unknown>) =>
  legacy(async () => pick(await import('@codemirror/legacy-modes/mode/clike')));

/** By `lang/lib` first (cURL's shells differ), then by `lang`. */
const MODES: Record<string, Load> = {
  'curl/bash': shell,
  'curl/powershell': powershell,
  httpie: shell,
  wget: shell,
  powershell,
  javascript: async () => (await import('@codemirror/lang-javascript')).javascript(),
  python: legacy(async () => (await import('@codemirror/legacy-modes/mode/python')).python),
  go: legacy(async () => (await import('@codemirror/legacy-modes/mode/go')).go),
  java: clike((m) => m.java),
  kotlin: clike((m) => m.kotlin),
  swift: legacy(async () => (await import('@codemirror/legacy-modes/mode/swift')).swift),
  csharp: clike((m) => m.csharp),
  // The snippet opens with `<?php`: the default (not `plain`) mode starts in PHP there.
  php: async () => (await import('@codemirror/lang-php')).php(),
  ruby: legacy(async () => (await import('@codemirror/legacy-modes/mode/ruby')).ruby),
  rust: legacy(async () => (await import('@codemirror/legacy-modes/mode/rust')).rust),
  dart: clike((m) => m.dart),
  c: clike((m) => m.c),
  // The body editor's (BodyEditor.tsx) and the response viewer's: one chunk for both.
  xml: markup((m) => m.xml),
  html: markup((m) => m.html),
  // The response viewer's (ResponseViewer.tsx); the body editor bundles its own JSON.
  json: async () => (await import('@codemirror/lang-json')).json(),
  css: legacy(async () => (await import('@codemirror/legacy-modes/mode/css')).css),
};

const loaded = new Map<string, Promise<Extension>>();

/** The mode for a target, or a language without libraries (`xml`; `[]`: plain text); each is loaded once. A mode that fails to load leaves the code plain. */
export function codeMode(lang: string, lib = ''): Promise<Extension> {
  const key = MODES[`${lang}/${lib}`] ? `${lang}/${lib}` : lang;
  const load = MODES[key];
  if (!load) return Promise.resolve([]);
  let mode = loaded.get(key);
  if (!mode) {
    mode = load().catch(() => {
      loaded.delete(key); // tried again next time (a chunk the server could not give once)
      return [];
    });
    loaded.set(key, mode);
  }
  return mode;
}
