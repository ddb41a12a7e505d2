/**
 * The placeholder syntax of spec 8.2, and nothing else: where the `{{ name }}` placeholders of a
 * text are. Scanning uses indexOf only (no regular expressions), so it is linear in the text.
 * One declaration for the template engine and the script sandbox's `replaceIn` (no Node API here:
 * the sandbox bundle imports it), so a script reads `{{ name }}` as a request does.
 *
 * 1. A name between `{{` and `}}`; spaces (and tabs) around it are allowed.
 * 2. A placeholder never spans lines; `{{}}` and a `{{` without `}}` stay as written.
 * 6. With nested braces only the innermost complete placeholder counts: `{{a{{b}}}}` holds `{{b}}`.
 */

export interface Placeholder {
  /** Index of the opening `{{`. */
  start: number;
  /** Index just past the closing `}}`. */
  end: number;
  /** The name, without the spaces around it. */
  name: string;
  /** True when written with no spaces around the name (`{{message}}` counts only then). */
  tight: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Every placeholder of `text`, in order. */
export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) break; // no `}}` anywhere after: every remaining `{{` stays as written
    // The innermost `{{` before this `}}`; it is at or after `open`, so the search is bounded.
    const start = text.lastIndexOf('{{', close - 2);
    from = close + 2;
    const placeholder = readName(text, start, close);
    if (placeholder !== undefined) found.push(placeholder);
  }
  return found;
}

/** The placeholder whose `{{` is at `start` and `}}` at `close`, or undefined when it names nothing. */
function readName(text: string, start: number, close: number): Placeholder | undefined {
  let first = start + 2;
  let last = close; // exclusive
  for (let i = first; i < last; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return undefined; // spans lines
  }
  while (first < last && isSpace(text.charCodeAt(first))) first++;
  while (last > first && isSpace(text.charCodeAt(last - 1))) last--;
  if (first === last) return undefined; // `{{}}` or `{{  }}`
  return {
    start,
    end: close + 2,
    name: text.slice(first, last),
    tight: first === start + 2 && last === close,
  };
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** True when the text may hold a placeholder at all (the fast path for plain text). */
export function mayHavePlaceholders(text: string): boolean {
  return text.indexOf('{{') >= 0;
}

/**
 * Why a variable key can never be referenced, or undefined when `{{key}}` reads back as it: a key
 * holding a line break, `{{` or `}}`, or starting or ending with a space, tab, `{` or `}`, is not
 * found by any placeholder (rules 1, 2, 6 above), so its value is defined but unusable.
 */
export function unusableKeyProblem(key: string): string | undefined {
  const found = findPlaceholders(`{{${key}}}`);
  if (found.length === 1 && found[0]!.name === key && found[0]!.tight) return undefined;
  return `${JSON.stringify(key)} can never be used: {{${JSON.stringify(key).slice(1, -1)}}} does not name it, since ${UNUSABLE_KEY_RULE}`;
}

/** The rule `unusableKeyProblem` gives, for a message listing several keys. */
export const UNUSABLE_KEY_RULE = 'a key cannot hold a line break, "{{" or "}}", nor start or end with a space, tab, "{" or "}"';
