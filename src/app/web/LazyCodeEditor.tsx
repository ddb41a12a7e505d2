/**
 * CodeMirror loaded when an editor is first shown, not with the page: it is most of the UI's
 * JavaScript, and the page opens on the Params tab (the 1 s page-usable target, bench/app.ts).
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const Editor = lazy(() => import('./CodeEditor.js').then((m) => ({ default: m.CodeEditor })));

export function CodeEditor(props: ComponentProps<typeof Editor>) {
  return (
    <Suspense fallback={<div className="code-editor loading" aria-busy="true">Loading the editor…</div>}>
      <Editor {...props} />
    </Suspense>
  );
}
