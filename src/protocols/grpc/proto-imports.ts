/**
 * The files a .proto file imports, found as protobufjs (under @grpc/proto-loader) finds them: by
 * its tokenizer's rules, not by a pattern. protobufjs skips comments anywhere between tokens
 * (`import /* c *\/ "x";`), joins adjacent strings (`import "../" "x";`) and drops unknown
 * escapes (`"..\q/x"` is `../x`); a plain `import "x";` pattern misses all three, and the file
 * they name would be read unchecked. Anything that looks like an import is listed (an `import`
 * word where protobufjs would not take one too): checking one file more is harmless.
 */

/** protobufjs's delimiters (tokenize.js `delimRe`): each is a token of its own and ends a word. */
const DELIMITER = /[\s{}=;:[\],'"()<>]/;
/** Its string patterns, anchored at the opening quote. */
const STRING: Record<string, RegExp> = { '"': /"([^"\\]*(?:\\.[^"\\]*)*)"/y, "'": /'([^'\\]*(?:\\.[^'\\]*)*)'/y };
/** Its escapes; any other `\x` reads as nothing, `\\` as one backslash. */
const ESCAPES: Record<string, string> = { 0: '\0', r: '\r', n: '\n', t: '\t' };

type Token = { word: string } | { string: string };

function unescape(text: string): string {
  return text.replace(/\\(.?)/g, (_all, c: string) => (c === '\\' || c === '' ? c : ESCAPES[c] ?? ''));
}

/** The tokens of `text`, until its end or until something protobufjs would refuse (an unclosed string or comment). */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      // protobufjs counts the opening star: `/*/` is a whole comment.
      const end = text.indexOf('*/', i + 1);
      if (end < 0) break;
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const pattern = STRING[c]!;
      pattern.lastIndex = i;
      const match = pattern.exec(text);
      if (!match) break;
      out.push({ string: unescape(match[1]!) });
      i = pattern.lastIndex;
    } else if (DELIMITER.test(c)) {
      out.push({ word: c });
      i++;
    } else {
      let end = i + 1;
      while (end < text.length && !DELIMITER.test(text[end]!)) end++;
      out.push({ word: text.slice(i, end) });
      i = end;
    }
  }
  return out;
}

/** The targets of the `import` statements of a .proto file's text, as protobufjs would read them. */
export function protoImports(text: string): string[] {
  const list = tokens(text);
  const found: string[] = [];
  for (let i = 0; i < list.length; i++) {
    if (!isWord(list[i], 'import')) continue;
    let j = i + 1;
    if (isWord(list[j], 'weak') || isWord(list[j], 'public')) j++;
    const parts: string[] = [];
    for (let token = list[j]; token !== undefined && 'string' in token; token = list[++j]) parts.push(token.string);
    if (parts.length > 0) found.push(parts.join(''));
  }
  return found;
}

function isWord(token: Token | undefined, word: string): boolean {
  return token !== undefined && 'word' in token && token.word === word;
}
