/**
 * Highlighted text without an editor: a stream message's JSON or XML as runs of text and token
 * classes, in the language's mode (code-modes.ts) and the app's token colours (code-colours.ts),
 * so the live panel's many messages cost spans, not a CodeMirror view each. Loaded with the first
 * message highlighted, not with the page.
 */
import { Language, LanguageSupport } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { highlightCode } from '@lezer/highlight';
import { codeColours } from './code-colours.js';
import { codeMode } from './code-modes.js';

/** A run of text and its token classes (`''`: plain). */
export type Run = [text: string, classes: string];

/**
 * The colours' rules, put into the page once: an editor mounts them itself, and the spans may be
 * drawn before any editor is.
 */
function mountColours(): void {
  if (document.getElementById('ferry-code-colours')) return;
  const style = document.createElement('style');
  style.id = 'ferry-code-colours';
  style.textContent = codeColours.module?.getRules() ?? '';
  document.head.append(style);
}

function languageOf(mode: Extension): Language | undefined {
  if (mode instanceof LanguageSupport) return mode.language;
  return mode instanceof Language ? mode : undefined;
}

/** `text` in runs highlighted as `lang` (a code-modes.ts language); one plain run when it has no mode. */
export async function highlightRuns(text: string, lang: string): Promise<Run[]> {
  const language = languageOf(await codeMode(lang));
  if (!language) return [[text, '']];
  mountColours();
  const runs: Run[] = [];
  highlightCode(text, language.parser.parse(text), codeColours, (part, classes) => runs.push([part, classes]), () => runs.push(['\n', '']));
  return runs;
}
