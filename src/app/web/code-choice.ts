/**
 * Copy as code's choice (spec 4.7): the targets of `/api/export/targets` as one entry per
 * language with its libraries (or cURL's shells), the search over them, and the last language
 * and each language's last library remembered on this computer.
 */
import type { CodeTarget } from '../shared/api.js';

export interface CodeLanguage {
  lang: string;
  language: string;
  /** Its libraries (cURL: its shells), in the spec's order. */
  targets: CodeTarget[];
  /** The one the targets API marks default (cURL: the computer's shell), else the first. */
  default: CodeTarget;
}

/** One entry per language, in the order the targets come (the spec's table). */
export function languagesOf(targets: readonly CodeTarget[]): CodeLanguage[] {
  const byLang = new Map<string, CodeTarget[]>();
  for (const t of targets) byLang.set(t.lang, [...(byLang.get(t.lang) ?? []), t]);
  return [...byLang.values()].map((list) => ({ lang: list[0]!.lang, language: list[0]!.language, targets: list, default: list.find((t) => t.default) ?? list[0]! }));
}

const libraryText = (t: CodeTarget) => `${t.library} ${t.lib} ${t.platform}`.toLowerCase();

/**
 * A language's entry for the search `query` (language, library or platform: "android" finds
 * Kotlin, "node" JavaScript, "cmd" cURL): undefined when it does not match; else the libraries
 * the query matched when the language's own name did not, which the entry shows as the reason.
 */
export function searchHit(language: CodeLanguage, query: string): { matched: CodeTarget[] } | undefined {
  const q = query.trim().toLowerCase();
  if (!q || `${language.language} ${language.lang}`.toLowerCase().includes(q)) return { matched: [] };
  const matched = language.targets.filter((t) => libraryText(t).includes(q));
  return matched.length ? { matched } : undefined;
}

/** What is remembered: the last language, and each language's last library (by `lib`). */
export interface CodeChoice {
  lang: string;
  libs: Record<string, string>;
}

const LANGUAGE = 'ferry.codeLanguage';
const LIBRARIES = 'ferry.codeLibraries';
/** Before one entry per language, the last target's id (`python/httpx`) was remembered: read once so the choice survives. */
const OLD_TARGET = 'ferry.codeTarget';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function readChoice(store: Store): CodeChoice {
  let libs: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(store.getItem(LIBRARIES) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      libs = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
    }
  } catch {
    // Not JSON (edited by hand, another version): every language starts from its default.
  }
  const lang = store.getItem(LANGUAGE);
  if (lang !== null) return { lang, libs };
  const [oldLang, oldLib] = (store.getItem(OLD_TARGET) ?? '').split('/');
  if (oldLang && oldLib) return { lang: oldLang, libs: { [oldLang]: oldLib, ...libs } };
  return { lang: '', libs };
}

export function saveChoice(store: Store, choice: CodeChoice): void {
  store.setItem(LANGUAGE, choice.lang);
  store.setItem(LIBRARIES, JSON.stringify(choice.libs));
}

/** The language shown: the remembered one, or the default target's when it no longer exists (or none is remembered). */
export function chosenLanguage(languages: readonly CodeLanguage[], choice: CodeChoice): CodeLanguage | undefined {
  return languages.find((l) => l.lang === choice.lang) ?? languages.find((l) => l.targets.some((t) => t.default)) ?? languages[0];
}

/** The language's library shown: the one last chosen for it, or its default when that no longer exists. */
export function chosenTarget(language: CodeLanguage, choice: CodeChoice): CodeTarget {
  return language.targets.find((t) => t.lib === choice.libs[language.lang]) ?? language.default;
}
