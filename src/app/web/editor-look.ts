/**
 * What every CodeMirror view of the app shares: the app's colours and font, its label and edits,
 * its value kept in sync; and the `{{variable}}` mark, which only the editors of templates put in
 * (CodeEditor, YamlEditor): a response body or Copy as code's snippet is not substituted.
 */
import { syntaxHighlighting } from '@codemirror/language';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef, type RefObject } from 'react';
import { codeColours } from './code-colours.js';

const variableMark = new MatchDecorator({ regexp: /\{\{[^{}]*\}\}/g, decoration: Decoration.mark({ class: 'cm-variable' }) });

/** Marks `{{name}}` placeholders (class `cm-variable`): for editors whose text Ferry fills in, not for code shown read-only. */
export const variables = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = variableMark.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = variableMark.updateDeco(update, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

/** The app's theme variables (light and dark follow the page). */
export const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--input-bg)', color: 'var(--fg)', height: '100%', fontSize: '13px' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--hover)' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)' },
  // CodeMirror's selection colours are for a light page: on the dark theme selected text was unreadable.
  '&.cm-editor .cm-selectionLayer .cm-selectionBackground, &.cm-editor.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-content ::selection': { backgroundColor: 'var(--code-selection)' },
});

/** The token colours (code-colours.ts), for the editors and the read-only code views alike. */
export const highlighting = syntaxHighlighting(codeColours);

/** Both editors' wiring: the label screen readers announce, and every edit handed to `changed.current`. */
export function labelledEditing(label: string, changed: { current: (text: string) => void }): Extension[] {
  return [
    EditorView.contentAttributes.of({ 'aria-label': label }),
    // Mod-Enter is the app's Send (its window listener still gets the key): CodeMirror's own
    // binding inserted a blank line, so each send from the body or a script changed the file.
    Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }])),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) changed.current(update.state.doc.toString());
    }),
  ];
}

/**
 * Makes the editor in `host` once, with what every editor shares (CodeMirror's basic set-up, the
 * app's look, the label and edits handed to `changed.current`) and its own `extensions` (an
 * editor of templates adds `variables`); a `value` changed from outside is put in. Returns the editor.
 */
export function useCodeMirror(host: RefObject<HTMLDivElement | null>, value: string, label: string, changed: { current: (text: string) => void }, extensions: () => Extension[]): { readonly current: EditorView | undefined } {
  const view = useRef<EditorView | undefined>(undefined);
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({ doc: value, extensions: [basicSetup, theme, highlighting, ...extensions(), ...labelledEditing(label, changed)] }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is made once; value changes are applied below, others by the editor's own effects.
  }, []);
  useEditorValue(view, value);
  return view;
}

/** Puts `value` into the editor when it differs from what it shows (another request opened, a reload). */
export function useEditorValue(view: { readonly current: EditorView | undefined }, value: string): void {
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);
}
