/** Copy as cURL or code (spec 4.7): a searchable language list, the code, a Copy action; the last choice is remembered. */
import { useEffect, useMemo, useState } from 'react';
import type { CodeTarget, RequestFile } from '../shared/api.js';
import { api } from './api.js';
import { Modal } from './Modal.js';

const LAST = 'ferry.codeTarget';

/** `request`: the editor's request when it is not written yet (exported as if saved at `path`). */
export function CodeDialog({ path, request, onClose }: { path: string; request?: RequestFile; onClose: () => void }) {
  const [targets, setTargets] = useState<CodeTarget[]>([]);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string>(() => localStorage.getItem(LAST) ?? '');
  const [substitute, setSubstitute] = useState(true);
  const [code, setCode] = useState('');
  /** Secret values the code holds in plain text (secret variables, auth credentials). */
  const [secrets, setSecrets] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    void api.get<CodeTarget[]>('/api/export/targets').then((list) => {
      setTargets(list);
      setChosen((c) => (list.some((t) => t.id === c) ? c : list.find((t) => t.default)?.id ?? list[0]!.id));
    });
  }, []);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    // Language, library or platform (spec 4.7): "android" finds Kotlin, "ios" Swift, "node" JavaScript.
    return targets.filter((t) => !q || `${t.language} ${t.library} ${t.lang} ${t.lib} ${t.platform}`.toLowerCase().includes(q));
  }, [targets, search]);
  const target = targets.find((t) => t.id === chosen);
  useEffect(() => {
    if (!target) return;
    localStorage.setItem(LAST, target.id);
    setError(null);
    // Only the answer for the language chosen last is shown: moving through the list with the
    // arrow keys asks for each, and an earlier answer arriving late showed that language's code.
    let current = true;
    api.post<{ code: string; secretsInCode?: string[] }>('/api/export', { path, request, lang: target.lang, lib: target.lib, substitute }).then((r) => {
      if (!current) return;
      setCode(r.code);
      setSecrets(r.secretsInCode ?? []);
    }, (e: Error) => current && setError(e.message));
    return () => { current = false; };
  }, [target, substitute, path]);

  return (
    <Modal label="Copy as code" className="wide" onClose={onClose}>
      <div className="code-dialog">
        <div className="targets">
          <input
            type="search" placeholder="Language or library" aria-label="Search languages" value={search} autoFocus
            // A combobox over the list (↑ ↓ choose in it): a screen reader reads the chosen language as it changes.
            role="combobox" aria-expanded="true" aria-controls="code-targets"
            aria-activedescendant={shown.some((t) => t.id === chosen) ? `code-target-${shown.findIndex((t) => t.id === chosen)}` : undefined}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              const i = shown.findIndex((t) => t.id === chosen);
              if (e.key === 'ArrowDown' && shown[i + 1]) setChosen(shown[i + 1]!.id);
              if (e.key === 'ArrowUp' && shown[i - 1]) setChosen(shown[i - 1]!.id);
              if (e.key === 'Enter' && shown[0] && i < 0) setChosen(shown[0].id);
            }}
          />
          <ul id="code-targets" role="listbox" aria-label="Languages">
            {shown.map((t, i) => (
              <li key={t.id} id={`code-target-${i}`} role="option" aria-selected={t.id === chosen} className={t.id === chosen ? 'on' : ''} title={t.platform} onClick={() => setChosen(t.id)}>
                {t.language} <small>{t.library}</small>
              </li>
            ))}
          </ul>
        </div>
        <div className="code-pane">
          <div className="code-tools">
            <label className="check"><input type="checkbox" checked={substitute} onChange={(e) => setSubstitute(e.target.checked)} /> Substitute variables</label>
            <button
              className="primary"
              onClick={() => void navigator.clipboard?.writeText(code).then(() => { setCopied(true); setTimeout(() => setCopied(false), 1500); }, () => undefined)}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          {!error && secrets.length > 0 && (
            <p className="warning" role="alert">
              The code holds secret values in plain text: {secrets.join(', ')}. Do not share or commit it as is
              {substitute ? '; untick Substitute variables to keep {{placeholders}} instead.' : '.'}
            </p>
          )}
          {error ? <p className="error">{error}</p> : <pre className="code" data-testid="code">{code}</pre>}
        </div>
      </div>
    </Modal>
  );
}
