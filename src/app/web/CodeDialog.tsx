/**
 * Copy as cURL or code (spec 4.7): a searchable list of languages, the chosen language's library
 * or shell above the highlighted code, a Copy action; the last language and each language's
 * last library are remembered (code-choice.ts).
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { CodeTarget, RequestFile } from '../shared/api.js';
import { api } from './api.js';
import { chosenLanguage, chosenTarget, languagesOf, readChoice, saveChoice, searchHit, type CodeChoice, type CodeLanguage } from './code-choice.js';
import { Modal } from './Modal.js';

// CodeMirror and the modes load with the dialog's code, not with the page (as LazyCodeEditor.tsx).
const CodeView = lazy(() => import('./CodeView.js'));

/** `request`: the editor's request when it is not written yet (exported as if saved at `path`). */
export function CodeDialog({ path, request, onClose }: { path: string; request?: RequestFile; onClose: () => void }) {
  const [targets, setTargets] = useState<CodeTarget[]>([]);
  const [search, setSearch] = useState('');
  const [choice, setChoice] = useState<CodeChoice>(() => readChoice(localStorage));
  const [substitute, setSubstitute] = useState(true);
  const [code, setCode] = useState('');
  /** The code shown is the chosen target's: Copy waits for it (it would copy the previous language's). */
  const [ready, setReady] = useState(false);
  /** Secret values the code holds in plain text (secret variables, auth credentials). */
  const [secrets, setSecrets] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    void api.get<CodeTarget[]>('/api/export/targets').then(setTargets);
  }, []);
  const languages = useMemo(() => languagesOf(targets), [targets]);
  const shown = useMemo(() => languages.flatMap((l) => {
    const hit = searchHit(l, search);
    return hit ? [{ language: l, matched: hit.matched }] : [];
  }), [languages, search]);
  const language = chosenLanguage(languages, choice);
  const target = language && chosenTarget(language, choice);

  /** Chooses a language (and a library of it, when given); a library the search matched is taken over one it did not. */
  const choose = (l: CodeLanguage, lib?: string) => {
    const matched = shown.find((s) => s.language === l)?.matched ?? [];
    const remembered = chosenTarget(l, choice);
    const pick = lib ?? (matched.length && !matched.includes(remembered) ? matched[0]!.lib : remembered.lib);
    const next = { lang: l.lang, libs: { ...choice.libs, [l.lang]: pick } };
    setChoice(next);
    saveChoice(localStorage, next);
  };

  useEffect(() => {
    if (!target) return;
    setError(null);
    setReady(false);
    // Only the answer for the language chosen last is shown: moving through the list with the
    // arrow keys asks for each, and an earlier answer arriving late showed that language's code.
    let current = true;
    api.post<{ code: string; secretsInCode?: string[] }>('/api/export', { path, request, lang: target.lang, lib: target.lib, substitute }).then((r) => {
      if (!current) return;
      setCode(r.code);
      setSecrets(r.secretsInCode ?? []);
      setReady(true);
    }, (e: Error) => current && setError(e.message));
    return () => { current = false; };
  }, [target, substitute, path]);

  const at = shown.findIndex((s) => s.language === language);
  return (
    <Modal label="Copy as code" className="wide" onClose={onClose}>
      <div className="code-dialog">
        <div className="targets">
          <input
            type="search" placeholder="Language, library or platform" aria-label="Search languages" value={search} autoFocus
            // A combobox over the list (↑ ↓ choose in it): a screen reader reads the chosen language as it changes.
            role="combobox" aria-expanded="true" aria-controls="code-targets" aria-autocomplete="list"
            aria-activedescendant={at >= 0 ? `code-language-${shown[at]!.language.lang}` : undefined}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              const next = e.key === 'ArrowDown' ? shown[at + 1] : e.key === 'ArrowUp' ? shown[at - 1] : e.key === 'Enter' && at < 0 ? shown[0] : undefined;
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') e.preventDefault(); // the caret stays where it is
              if (next) choose(next.language);
            }}
          />
          <ul id="code-targets" role="listbox" aria-label="Languages">
            {shown.map(({ language: l, matched }) => (
              <li
                key={l.lang} id={`code-language-${l.lang}`} role="option" aria-selected={l === language} className={l === language ? 'on' : ''}
                title={l.targets.map((t) => `${t.library} (${t.platform})`).join('\n')} onClick={() => choose(l)}
              >
                {l.language}
                {/* Why a language the search found by its library or platform is listed ("android": Kotlin OkHttp 4). */}
                {matched.length > 0 && <small> {matched.map((t) => t.library).join(', ')}</small>}
              </li>
            ))}
          </ul>
        </div>
        <div className="code-pane">
          <div className="code-tools">
            {language && target && <LibraryChoice language={language} target={target} onChoose={(lib) => choose(language, lib)} />}
            <span className="code-actions">
              <label className="check"><input type="checkbox" checked={substitute} onChange={(e) => setSubstitute(e.target.checked)} /> Substitute variables</label>
              <button
                className="primary" disabled={!ready} aria-busy={!ready && !error}
                onClick={() => void navigator.clipboard?.writeText(code).then(() => { setCopied(true); setTimeout(() => setCopied(false), 1500); }, () => undefined)}
              >
                {copied ? 'Copied' : 'Copy'}
              </button>
            </span>
          </div>
          {!error && secrets.length > 0 && (
            <p className="warning" role="alert">
              The code holds secret values in plain text: {secrets.join(', ')}. Do not share or commit it as is
              {substitute ? '; untick Substitute variables to keep {{placeholders}} instead.' : '.'}
            </p>
          )}
          {error ? <p className="error">{error}</p> : target && (
            <Suspense fallback={<div className="code-editor code-view loading" aria-busy="true">Loading the code view…</div>}>
              <CodeView code={code} lang={target.lang} lib={target.lib} onEscape={onClose} />
            </Suspense>
          )}
        </div>
      </div>
    </Modal>
  );
}

/** The language's libraries (cURL: shells) as radio buttons; a language with one shows it as text. */
function LibraryChoice({ language, target, onChoose }: { language: CodeLanguage; target: CodeTarget; onChoose: (lib: string) => void }) {
  const what = language.lang === 'curl' ? 'Shell' : 'Library';
  if (language.targets.length === 1) {
    return <p className="code-library"><span className="legend">{what}</span> {target.library} <small>{target.platform}</small></p>;
  }
  return (
    <fieldset className="code-library">
      <legend>{what}</legend>
      {language.targets.map((t) => (
        <label key={t.lib} className="check" title={t.platform}>
          <input type="radio" name="code-library" value={t.lib} checked={t === target} onChange={() => onChoose(t.lib)} /> {t.library}
        </label>
      ))}
      <small>{target.platform}</small>
    </fieldset>
  );
}
