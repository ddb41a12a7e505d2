/**
 * Highlighted code to read: Copy as code's snippet and the response viewer's Pretty body. The
 * app's CodeMirror set-up (editor-look.ts), read-only, with the language's mode (code-modes.ts)
 * put in when it has loaded. Read-only, not non-editable: the code keeps a cursor, so it can be
 * focused, selected, searched (Ctrl+F, as in the editors) and scrolled with the keyboard.
 * `{{name}}` is not marked as a variable: nothing here is filled in (a response body is what the
 * server sent; the snippet is run by another program), so the editors' mark would mislead.
 */
import { searchPanelOpen } from '@codemirror/search';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
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

export interface CodeViewProps {
  code: string;
  /** The language (code-modes.ts): a Copy as code target's, or `json`, `xml`… */
  lang: string;
  /** The target's library, for a language whose mode depends on it (cURL's shell). */
  lib?: string;
  /** What screen readers call the code. */
  label?: string;
  /** Esc in the code (a dialog's close); none: CodeMirror's own Esc. */
  onEscape?: () => void;
  /** Long lines wrap (the response viewer's body, as its plain text does). */
  wrap?: boolean;
  className?: string;
  /** The test id of the box, and of the code's own element (whose text is the code's lines). */
  testId?: string;
  contentTestId?: string;
}

export default function CodeView({ code, lang, lib, label = 'Code', onEscape, wrap = false, className = '', testId = 'code', contentTestId }: CodeViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const close = useRef(onEscape);
  close.current = onEscape;
  const mode = useRef(new Compartment());
  const view = useCodeMirror(host, code, label, nothing, () => {
    const own: Extension[] = [EditorState.readOnly.of(true), mode.current.of([])];
    if (onEscape) own.push(escapeCloses({ current: () => close.current?.() }));
    if (wrap) own.push(EditorView.lineWrapping);
    if (contentTestId) own.push(EditorView.contentAttributes.of({ 'data-testid': contentTestId }));
    return own;
  });

  useEffect(() => {
    // Only the mode of the language shown now is put in: one chosen earlier may load later.
    let current = true;
    view.current?.dispatch({ effects: mode.current.reconfigure([]) });
    void codeMode(lang, lib ?? '').then((extension) => {
      if (current) view.current?.dispatch({ effects: mode.current.reconfigure(extension) });
    });
    return () => {
      current = false;
    };
  }, [lang, lib]);

  return <div className={`code-editor code-view ${className}`.trim()} ref={host} data-testid={testId} data-lang={lib === undefined ? lang : `${lang}/${lib}`} />;
}
