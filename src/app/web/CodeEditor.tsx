/** CodeMirror 6 for bodies and scripts: `{{variable}}` marked and completed, JSON or JavaScript highlighting. */
import { autocompletion, type CompletionContext } from '@codemirror/autocomplete';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { Compartment, EditorState } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

const variableMark = new MatchDecorator({ regexp: /\{\{[^{}]*\}\}/g, decoration: Decoration.mark({ class: 'cm-variable' }) });
const variables = ViewPlugin.fromClass(
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

/** Completes `{{name` with the names the page knows (workspace and environment variables, dynamic values). */
function variableCompletion(names: () => readonly string[]) {
  return (context: CompletionContext) => {
    const word = context.matchBefore(/\{\{[\w$.-]*/);
    if (!word) return null;
    return { from: word.from + 2, options: names().map((label) => ({ label, type: 'variable', apply: `${label}}}` })) };
  };
}

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--input-bg)', color: 'var(--fg)', height: '100%', fontSize: '13px' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--hover)' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)' },
});

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language?: 'json' | 'javascript' | 'text';
  variableNames?: readonly string[];
  readOnly?: boolean;
  label: string;
  minHeight?: number;
}

export function CodeEditor({ value, onChange, language = 'text', variableNames = [], readOnly = false, label, minHeight = 160 }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const changed = useRef(onChange);
  const names = useRef(variableNames);
  const languageSlot = useRef(new Compartment());
  changed.current = onChange;
  names.current = variableNames;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          theme,
          variables,
          autocompletion({ override: [variableCompletion(() => names.current)] }),
          languageSlot.current.of(language === 'json' ? json() : language === 'javascript' ? javascript() : []),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is made once; value and language changes are applied below.
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(language === 'json' ? json() : language === 'javascript' ? javascript() : []) });
  }, [language]);

  return <div className="code-editor" ref={host} style={{ minHeight }} data-label={label} />;
}
