/** CodeMirror 6 for a YAML section (the server editor): `{{variable}}` marked, and a refused save's problem shown at its line. */
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { useCodeMirror, variables } from './editor-look.js';
import { useEffect, useRef } from 'react';

/** Where the last refused save found its problem: 1-based line and column of the editor's text. */
export interface YamlProblem {
  line: number;
  column: number;
  message: string;
}

export function YamlEditor({ value, onChange, label, problem, minHeight = 220 }: { value: string; onChange: (v: string) => void; label: string; problem: YamlProblem | null; minHeight?: number }) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const view = useCodeMirror(host, value, label, changed, () => [yaml(), lintGutter(), variables /* a server's answers are templates (spec 8.2) */]);

  // The problem as a diagnostic on its line (from the column to the line's end), and the cursor put there.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    if (!problem) {
      editor.dispatch(setDiagnostics(editor.state, []));
      return;
    }
    const doc = editor.state.doc;
    const line = doc.line(Math.min(Math.max(problem.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(problem.column - 1, 0), line.to);
    editor.dispatch(setDiagnostics(editor.state, [{ from, to: Math.max(line.to, from), severity: 'error', message: problem.message }]));
    editor.dispatch({ selection: { anchor: from }, scrollIntoView: true });
  }, [problem]);

  return <div className="code-editor" ref={host} style={{ minHeight }} data-label={label} />;
}
