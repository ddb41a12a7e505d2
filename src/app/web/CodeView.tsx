/**
 * Copy as code's highlighted code: the app's CodeMirror set-up (editor-look.ts), read-only, with
 * the target's mode (code-modes.ts) put in when it has loaded. Read-only, not non-editable: the
 * code keeps a cursor, so it can be focused, selected and scrolled with the keyboard.
 */
import { searchPanelOpen } from '@codemirror/search';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { codeMode } from './code-modes.js';
import { useCodeMirror } from './editor-look.js';

const nothing = { current: () => undefined };

/**
 * Esc in the code closes the dialog (`close`), as it does from the language list: CodeMirror's
 * own Esc narrowed a selection and took the key (after Ctrl+A the dialog stayed). Its search
 * panel keeps Esc.
 */
function escapeCloses(close: { current: () => void }) {
  return Prec.highest(keymap.of([{ key: 'Escape', run: (view) => !searchPanelOpen(view.state) && (close.current(), true) }]));
}

export default function CodeView({ code, lang, lib, onEscape }: { code: string; lang: string; lib: string; onEscape: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const close = useRef(onEscape);
  close.current = onEscape;
  const mode = useRef(new Compartment());
  const view = useCodeMirror(host, code, 'Code', nothing, () => [EditorState.readOnly.of(true), escapeCloses(close), mode.current.of([])]);

  useEffect(() => {
    // Only the mode of the language shown now is put in: one chosen earlier may load later.
    let current = true;
    view.current?.dispatch({ effects: mode.current.reconfigure([]) });
    void codeMode(lang, lib).then((extension) => {
      if (current) view.current?.dispatch({ effects: mode.current.reconfigure(extension) });
    });
    return () => {
      current = false;
    };
  }, [lang, lib]);

  return <div className="code-editor code-view" ref={host} data-testid="code" data-lang={`${lang}/${lib}`} />;
}
