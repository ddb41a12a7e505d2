/**
 * YAML 1.2 read fast: js-yaml's loader costs about a tenth of `yaml`'s composer (0.05 against
 * 0.4 ms for a small file; 49 against 529 ms for GitHub's 2.7 MB OpenAPI document). js-yaml speaks
 * YAML 1.1 on a few points, so it is used only for text where the two read the same: no anchors,
 * aliases, tags, merge keys or directives, and no scalar that looks like a number one of them reads
 * differently. Everything else is left to `yaml` (the caller's fallback), as are syntax errors,
 * whose `yaml` messages carry the position the caller reports.
 */
import jsYaml from 'js-yaml';

/** A merge key `<<` or a directive `%YAML` anywhere: such texts take the `yaml` path. */
const MERGE_OR_DIRECTIVE = /<<|^%/m;

/** Thrown from js-yaml's listener to stop at the first node with an anchor, alias or tag. */
const NOT_PLAIN = new Error('not plain YAML');

/**
 * Called as each node opens: a node whose first character (past spaces and line breaks)
 * and comments) is `&` (anchor), `*` (alias) or `!` (tag) is not plain. Text inside scalars opens no
 * node, so `**bold**` in a description is plain.
 */
function refuseProperties(state: { input: string; position: number }): void {
  const { input } = state;
  let i = state.position;
  let c = input.charCodeAt(i);
  for (;;) {
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = input.charCodeAt(++i);
    if (c !== 0x23 /* # */) break;
    // A comment (a node cannot start with #): skip to the end of its line.
    while (i < input.length && c !== 0x0a && c !== 0x0d) c = input.charCodeAt(++i);
  }
  if (c === 0x26 /* & */ || c === 0x2a /* * */ || c === 0x21 /* ! */) throw NOT_PLAIN;
}

/**
 * Scalars js-yaml's core schema reads unlike YAML 1.2 (and `yaml`, which every edit uses): `1_000`,
 * `0b101`, `-0x1F`, `0x_1`, `._0` are text in YAML 1.2 but numbers to js-yaml, and `+.5` the other way
 * round; the integer `-0` is -0 in YAML 1.2 but 0 to js-yaml (a file would read otherwise once an
 * anchor sent it down the other path, and a kept field be written back as `0`). A text holding
 * anything like them takes the `yaml` path, so `value: 1_000` stays "1_000".
 */
const NUMBER_LIKE = /(?:^|[\s:[{,])(?:[-+]?(?:0b|0[xo][\da-f]*_|\d[\d.]*_|\.[\d_])|[-+]0[xo]|-0+(?![\d.e]))/im;

/** Whether js-yaml could read this text as YAML 1.2 does (the anchors, aliases and tags are checked as it reads). */
function mayBePlainYaml(text: string): boolean {
  return !MERGE_OR_DIRECTIVE.test(text) && !NUMBER_LIKE.test(text);
}

/**
 * The data of a plain YAML text (no anchors, aliases, tags, merge keys, directives or
 * YAML-1.1-style numbers), or undefined when the text is not plain or does
 * not parse: the caller then parses it with `yaml`. `uniqueKeys: false` lets a later repeated key
 * win, as `yaml` does with that option. `depth` is how deeply js-yaml's nodes nested as it read
 * them (opened and closed; a list or object is a node, and each is read inside its parent's): never
 * less than how deeply the data's lists and objects nest, so no caller need walk the data for it.
 */
export function loadPlainYaml(text: string, options: { uniqueKeys: boolean }): { data: unknown; depth: number } | undefined {
  if (!mayBePlainYaml(text)) return undefined;
  let depth = 0;
  let deepest = 0;
  const listener = (event: string, state: { input: string; position: number }): void => {
    if (event === 'close') {
      depth--;
    } else if (event === 'open') {
      refuseProperties(state);
      if (++depth > deepest) deepest = depth;
    }
  };
  try {
    const data = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, json: !options.uniqueKeys, listener: listener as never });
    return { data, depth: deepest };
  } catch {
    return undefined;
  }
}
