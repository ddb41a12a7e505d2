/**
 * Where JSON text first goes wrong, for messages that name a line and column: Node 20's
 * `JSON.parse` gives no position for a stray token (`Unexpected token '}', "…" is not valid
 * JSON`), and in a large export that snippet finds nothing. Walks the grammar (RFC 8259) without
 * building values, with a stack of its own, so deep nesting cannot overflow the call stack.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * The offset of the first character that cannot stand where it is (`text.length` when the text
 * ends too soon), or undefined when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const open: string[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  /** Reads a string at `i`; returns the offset of its fault, or undefined with `i` past it. */
  const readString = (): number | undefined => {
    if (text[i] !== '"') return i;
    i++;
    for (;;) {
      if (i >= text.length) return i;
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c < ' ') return i;
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          for (let k = 2; k < 6; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) return Math.min(i + k, text.length);
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else return Math.min(i + 1, text.length);
      } else i++;
    }
  };
  /** Reads an object's key and its colon, leaving `i` at the value. */
  const readKey = (): number | undefined => {
    const fault = readString();
    if (fault !== undefined) return fault;
    skipSpace();
    if (text[i] !== ':') return i;
    i++;
    return undefined;
  };

  let expectValue = true;
  for (;;) {
    skipSpace();
    if (expectValue) {
      const c = text[i];
      if (c === '{' || c === '[') {
        open.push(c);
        i++;
        skipSpace();
        const close = c === '{' ? '}' : ']';
        if (text[i] === close) {
          open.pop();
          i++;
          expectValue = false;
        } else if (c === '{') {
          const fault = readKey();
          if (fault !== undefined) return fault;
        }
        continue;
      }
      if (c === '"') {
        const fault = readString();
        if (fault !== undefined) return fault;
      } else if (c === 't' || c === 'f' || c === 'n') {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
        for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) return Math.min(i + k, text.length);
        i += word.length;
      } else {
        const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
        number.lastIndex = i;
        const m = number.exec(text);
        if (!m) return i;
        // `01`, `1.` or `1e`: the number ends where the grammar does; what follows is the fault.
        i += m[0].length;
      }
      expectValue = false;
      continue;
    }
    const top = open[open.length - 1];
    if (top === undefined) return i < text.length ? i : undefined;
    const c = text[i];
    if (c === ',') {
      i++;
      if (top === '{') {
        skipSpace();
        const fault = readKey();
        if (fault !== undefined) return fault;
      }
      expectValue = true;
    } else if (c === (top === '{' ? '}' : ']')) {
      open.pop();
      i++;
    } else return i;
  }
}
