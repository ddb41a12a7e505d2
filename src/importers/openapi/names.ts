/** Names the import gives: requests after their operation, path parameters as camelCase variables. */
import { MAX_NAME_LENGTH } from '../../workspace/index.js';

/** Parameter names too generic to say what they identify: they get the resource in front. */
const GENERIC_PARAMS = new Set(['id', 'uuid', 'guid', 'key', 'slug', 'name', 'code', 'ref', 'number', 'num', 'no', 'index', 'idx']);

/** `session_id`, `session-id`, `Session ID` → `sessionId`. Keeps letters, digits, `_` and `$` only. */
export function camelCase(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9$]+/)
    .filter(Boolean);
  if (words.length === 0) return 'param';
  return words
    .map((word, i) => {
      // Words already in camelCase keep their inner capitals; ALL-CAPS words are lowered.
      const lower = word === word.toUpperCase() ? word.toLowerCase() : word;
      return i === 0 ? lower.charAt(0).toLowerCase() + lower.slice(1) : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join('');
}

/** `pets` → `pet`, `categories` → `category`, `addresses` → `address`; good enough for variable names. */
export function singular(word: string): string {
  if (/ies$/i.test(word) && word.length > 4) return word.slice(0, -3) + 'y';
  if (/(ss|us|is)$/i.test(word)) return word;
  if (/(xes|ches|shes|sses|zes)$/i.test(word)) return word.slice(0, -2);
  if (/s$/i.test(word) && word.length > 1) return word.slice(0, -1);
  return word;
}

/**
 * Variable names for the path parameters of a path template, in order of appearance.
 * `/pets/{id}` → `petId`; `/users/{user_id}` → `userId`. Names repeated in one path get a number.
 */
export function pathVariableNames(pathTemplate: string): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  const segments = pathTemplate.split('/');
  let lastStatic = '';
  for (const segment of segments) {
    const params = [...segment.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
    if (params.length === 0) {
      if (segment) lastStatic = segment;
      continue;
    }
    for (const param of params) {
      if (names.has(param)) continue;
      let name = camelCase(param);
      if (GENERIC_PARAMS.has(name.toLowerCase()) && lastStatic) {
        const resource = camelCase(singular(lastStatic.replace(/\.[a-z0-9]+$/i, '')));
        if (resource !== 'param') name = resource + name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();
      }
      let unique = name;
      for (let n = 2; used.has(unique); n++) unique = `${name}${n}`;
      used.add(unique);
      names.set(param, unique);
    }
  }
  return names;
}

/** One line of display text, cut to the name limit; undefined when nothing is left. */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  const chars = [...line];
  return chars.length > MAX_NAME_LENGTH ? chars.slice(0, MAX_NAME_LENGTH - 1).join('') + '…' : line;
}

/** Request name: `summary`, else `operationId`, else `METHOD /path` (spec 4.4.2). */
export function requestName(operation: Record<string, unknown>, method: string, pathTemplate: string): string {
  return cleanName(operation.summary) ?? cleanName(operation.operationId) ?? cleanName(`${method} ${pathTemplate}`)!;
}

/** The operation text the contract check and updates key on: `METHOD /path/{param}`. */
export function operationText(method: string, pathTemplate: string): string {
  return `${method.toUpperCase()} ${pathTemplate}`;
}

/** The same operation key for paths that differ only in their parameter names. */
export function operationKey(text: string): string {
  const match = /^\s*([A-Za-z]+)\s+(\S.*?)\s*$/.exec(text);
  if (!match) return text;
  return `${match[1]!.toUpperCase()} ${match[2]!.replace(/\{[^}/]*\}/g, '{}')}`;
}
