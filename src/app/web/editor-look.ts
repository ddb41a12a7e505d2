/** What every CodeMirror editor of the app shares: `{{variable}}` marked, and the app's colours and font. */
import { Decoration, EditorView, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';

const variableMark = new MatchDecorator({ regexp: /\{\{[^{}]*\}\}/g, decoration: Decoration.mark({ class: 'cm-variable' }) });

/** Marks `{{name}}` placeholders (class `cm-variable`). */
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
});
