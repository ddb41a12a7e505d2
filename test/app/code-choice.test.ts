/** Copy as code's choice (code-choice.ts) over the real target list: languages, search, what is remembered. */
import { describe, expect, it } from 'vitest';
import { chosenLanguage, chosenTarget, languagesOf, readChoice, saveChoice, searchHit } from '../../src/app/web/code-choice.js';
import { listTargets } from '../../src/codegen/index.js';

/** A Storage of strings, as localStorage is. */
function store(items: Record<string, string> = {}) {
  const map = new Map(Object.entries(items));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('Copy as code choice', () => {
  const linux = languagesOf(listTargets('linux'));
  const windows = languagesOf(listTargets('win32'));

  it('one entry per language, in the spec\'s order, each with its libraries and the default the targets API marks', () => {
    expect(linux.map((l) => l.language)).toEqual(['cURL', 'HTTPie', 'Wget', 'PowerShell', 'JavaScript', 'Python', 'Go', 'Java', 'Kotlin', 'Swift', 'C#', 'PHP', 'Ruby', 'Rust', 'Dart', 'C']);
    const curl = linux[0]!;
    expect(curl.targets.map((t) => t.lib)).toEqual(['bash', 'cmd', 'powershell']);
    expect(curl.default.lib).toBe('bash');
    expect(windows[0]!.default.lib).toBe('cmd');
    expect(linux.find((l) => l.lang === 'python')!.targets.map((t) => t.lib)).toEqual(['requests', 'httpx']);
  });

  it('the search matches the language, or a library or platform and says which', () => {
    const hits = (q: string) => linux.flatMap((l) => {
      const hit = searchHit(l, q);
      return hit ? [`${l.language}${hit.matched.length ? `: ${hit.matched.map((t) => t.lib).join(',')}` : ''}`] : [];
    });
    expect(hits('')).toHaveLength(16);
    expect(hits('android')).toEqual(['Kotlin: okhttp']);
    expect(hits('node')).toEqual(['JavaScript: fetch,axios']);
    expect(hits('cmd')).toEqual(['cURL: cmd']);
    expect(hits('  PYTHON ')).toEqual(['Python']);
    expect(hits('httpx')).toEqual(['Python: httpx']);
    expect(hits('flutter')).toEqual(['Dart: http']);
    expect(hits('cobol')).toEqual([]);
  });

  it('remembers the last language and each language\'s last library; an unknown one falls back to the default', () => {
    const s = store();
    expect(readChoice(s)).toEqual({ lang: '', libs: {} });
    expect(chosenLanguage(linux, readChoice(s))!.lang).toBe('curl');
    saveChoice(s, { lang: 'javascript', libs: { python: 'httpx', javascript: 'axios' } });
    const back = readChoice(s);
    expect(chosenLanguage(linux, back)!.lang).toBe('javascript');
    expect(chosenTarget(linux.find((l) => l.lang === 'python')!, back).lib).toBe('httpx');
    expect(chosenTarget(linux.find((l) => l.lang === 'go')!, back).lib).toBe('net-http');

    const gone = readChoice(store({ 'ferry.codeLanguage': 'cobol', 'ferry.codeLibraries': '{"python":"urllib3","curl":7}' }));
    expect(chosenLanguage(windows, gone)!.lang).toBe('curl');
    expect(chosenTarget(windows[0]!, gone).lib).toBe('cmd');
    expect(gone.libs).toEqual({ python: 'urllib3' }); // a value that is not a library name is dropped
    expect(chosenTarget(linux.find((l) => l.lang === 'python')!, gone).lib).toBe('requests');
    for (const bad of ['{not json', '[1]', 'null']) expect(readChoice(store({ 'ferry.codeLibraries': bad })).libs).toEqual({});
  });

  it('takes over the last target the version before remembered (one id)', () => {
    expect(readChoice(store({ 'ferry.codeTarget': 'python/httpx' }))).toEqual({ lang: 'python', libs: { python: 'httpx' } });
    // The new keys win once written.
    expect(readChoice(store({ 'ferry.codeTarget': 'python/httpx', 'ferry.codeLanguage': 'go' })).lang).toBe('go');
  });
});
