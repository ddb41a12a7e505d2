/**
 * Rewrites an existing YAML file so that only what changed changes: comments, key order,
 * quoting and unknown fields survive, and a git diff shows just the edit.
 *
 * `Document.toString()` would re-format the whole file, so instead we compare the file's data
 * with the new data and splice text at the source ranges of the nodes that differ.
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { yamlLibrary as yaml } from '../support/yaml-library.js';
import { deepEqual, isPlainObject } from '../model/index.js';
import { renderYaml } from './yaml-file.js';

interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Returns `source` changed to hold `data`, touching only the lines that differ. */
export function editYaml(source: string, data: unknown): string {
  // A file written with CRLF line ends keeps them: new lines get CRLF too, never a mix.
  const firstBreak = source.indexOf('\n');
  const crlf = firstBreak > 0 && source[firstBreak - 1] === '\r';
  const lineEnds = (text: string) => (crlf ? text.replace(/\r?\n/g, '\r\n') : text);
  const doc = yaml().parseDocument(source, { version: '1.2', keepSourceTokens: true });
  if (doc.errors.length > 0 || !yaml().isMap(doc.contents) || !isPlainObject(data) || doc.contents.flow) {
    return lineEnds(renderYaml(data));
  }
  const edits: TextEdit[] = [];
  const editor = new Editor(source, edits);
  if (!editor.editMap(doc.contents, data)) return lineEnds(renderYaml(data));
  for (const edit of edits) edit.text = lineEnds(edit.text);
  let out = source;
  // From the end backwards. At one position a removal goes first, and of two insertions the later
  // one first, so that text inserted at one place ends up in the order it was planned.
  const order = edits.map((edit, index) => ({ edit, index }));
  order.sort((a, b) => b.edit.start - a.edit.start || b.edit.end - a.edit.end || b.index - a.index);
  for (const { edit } of order) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

class Editor {
  constructor(private readonly source: string, private readonly edits: TextEdit[]) {}

  /**
   * Edits a block map in place. Returns false when it cannot do so cleanly (no key survives,
   * duplicate keys, or the map's first key shares its line with a list dash and goes away);
   * the caller then rewrites the whole value.
   */
  editMap(node: YAMLMap, data: Record<string, unknown>): boolean {
    const pairs = node.items.filter(yaml().isPair) as Pair<Node, Node | null>[];
    const byKey = new Map<string, Pair<Node, Node | null>>();
    for (const pair of pairs) if (yaml().isScalar(pair.key) && pair.key.range) byKey.set(String(pair.key.value), pair);
    if (byKey.size !== pairs.length || pairs.length === 0) return false;
    const kept = pairs.filter((p) => data[String((p.key as Scalar).value)] !== undefined);
    if (kept.length === 0) return false;
    if (kept[0] !== pairs[0] && !this.startsLine(pairs[0]!.key.range![0])) return false;

    const column = this.columnOf(pairs[0]!.key.range![0]);
    let previous: Pair<Node, Node | null> | undefined;
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined) continue;
      const pair = byKey.get(key);
      if (!pair) {
        this.insertPair(kept[0]!, previous, column, key, value);
        continue;
      }
      previous = pair;
      this.editPairValue(pair, column, value);
    }
    for (const [key, pair] of byKey) {
      if (data[key] === undefined) this.deletePair(pair);
    }
    return true;
  }

  private editPairValue(pair: Pair<Node, Node | null>, column: number, value: unknown): void {
    const current = pair.value;
    const currentData = current ? current.toJSON() : null;
    if (deepEqual(currentData, value)) return;
    if (current && yaml().isMap(current) && !current.flow && isPlainObject(value) && this.editMap(current, value)) return;
    if (current && yaml().isSeq(current) && !current.flow && Array.isArray(value) && current.items.length > 0) {
      const fallback = () => this.replacePair(pair, column, value);
      if (current.items.length === value.length) return this.editSeq(current, value, fallback);
      if (current.items.length < value.length) return this.appendToSeq(current, value, fallback);
      return value.length === 0 ? fallback() : this.removeFromSeq(current, value, fallback);
    }
    if (current && yaml().isScalar(current) && this.replaceScalar(current, value)) return;
    const collection = value !== null && typeof value === 'object';
    // A flow collection keeps its style, except an empty one (`headers: []`): filled, it becomes a block.
    if (current && (yaml().isMap(current) || yaml().isSeq(current)) && current.flow && current.items.length > 0 && collection) {
      return this.replaceNode(current, value);
    }
    this.replacePair(pair, column, value);
  }

  private editSeq(node: YAMLSeq, data: unknown[], fallback: () => void): void {
    const items = node.items as Node[];
    const plan: Array<() => void> = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const value = data[i];
      if (deepEqual(item.toJSON(), value)) continue;
      if (yaml().isMap(item) && !item.flow && isPlainObject(value) && this.canEditMap(item, value)) plan.push(() => this.editMap(item, value));
      else if (yaml().isScalar(item) && this.canReplaceScalar(item, value)) plan.push(() => this.replaceScalar(item, value));
      else if ((yaml().isMap(item) || yaml().isSeq(item)) && item.flow && value !== null && typeof value === 'object') plan.push(() => this.replaceNode(item, value));
      else return fallback();
    }
    for (const step of plan) step();
  }

  /** Items added at the end of a block list: the old items are edited in place, the new ones inserted after. */
  private appendToSeq(node: YAMLSeq, data: unknown[], fallback: () => void): void {
    const items = node.items as Node[];
    const dash = this.dashColumn(items[0]!);
    const last = items[items.length - 1]!;
    if (dash === undefined || !last.range) return fallback();
    let replaced = false;
    this.editSeq(node, data.slice(0, items.length), () => {
      replaced = true;
      fallback();
    });
    if (replaced) return;
    const at = this.lineEndAfter(last.range[1]);
    const text = renderYaml(data.slice(items.length)).replace(/\n$/, '');
    const pad = ' '.repeat(dash);
    const indented = text.split('\n').map((line) => (line === '' ? line : pad + line)).join('\n');
    this.edits.push({ start: at, end: at, text: `${this.source[at - 1] === '\n' || at === 0 ? '' : '\n'}${indented}\n` });
  }

  /** Items removed from a block list: their lines go, the others stay as written. */
  private removeFromSeq(node: YAMLSeq, data: unknown[], fallback: () => void): void {
    const items = node.items as Node[];
    const keep: boolean[] = [];
    let next = 0;
    for (const item of items) {
      const match = next < data.length && deepEqual(item.toJSON(), data[next]);
      keep.push(match);
      if (match) next++;
    }
    if (next !== data.length) return fallback();
    items.forEach((item, i) => {
      if (keep[i] || !item.range) return;
      const lineStart = this.source.lastIndexOf('\n', item.range[0] - 1) + 1;
      this.edits.push({ start: lineStart, end: this.lineEndAfter(item.range[1]), text: '' });
    });
  }

  /** Column of the `-` that starts a block list item, when the item starts its line. */
  private dashColumn(item: Node): number | undefined {
    if (!item.range) return undefined;
    const lineStart = this.source.lastIndexOf('\n', item.range[0] - 1) + 1;
    const prefix = this.source.slice(lineStart, item.range[0]);
    const match = /^( *)- +$/.exec(prefix);
    return match ? match[1]!.length : undefined;
  }

  private canReplaceScalar(node: Scalar, value: unknown): boolean {
    return this.scalarText(node, value) !== undefined;
  }

  private replaceScalar(node: Scalar, value: unknown): boolean {
    const text = this.scalarText(node, value);
    if (text === undefined || !node.range) return false;
    if (node.range[0] === node.range[1]) {
      // An empty value (`url:`, `url:   # note`, a bare `-`) has no text of its own: the new one goes
      // right after the indicator, with a space, so it neither joins the `:` nor runs into the comment.
      let at = node.range[0];
      while (at > 0 && (this.source[at - 1] === ' ' || this.source[at - 1] === '\t')) at--;
      if (this.source[at - 1] === ':' || this.source[at - 1] === '-') {
        const blank = /^[ \t]*(?=\r?\n|$)/.exec(this.source.slice(at))?.[0].length ?? 0; // trailing blanks go
        this.edits.push({ start: at, end: at + blank, text: ` ${text}` });
        return true;
      }
    }
    this.edits.push({ start: node.range[0], end: node.range[1], text });
    return true;
  }

  /** The new scalar written in the old one's style, when that fits on one line. */
  private scalarText(node: Scalar, value: unknown): string | undefined {
    if (value !== null && typeof value === 'object') return undefined;
    if (node.type === yaml().Scalar.BLOCK_LITERAL || node.type === yaml().Scalar.BLOCK_FOLDED) return undefined;
    const scalar = new (yaml().Scalar)(value);
    if (node.type) scalar.type = node.type;
    const text = new (yaml().Document)(scalar, { version: '1.2' }).toString({ lineWidth: 0 }).replace(/\n$/, '');
    return text.includes('\n') ? undefined : text;
  }

  /** Replaces a flow collection (or a whole root) with the new data in flow style. */
  private replaceNode(node: Node, value: unknown): void {
    if (!node.range) return;
    const doc = new (yaml().Document)(value, { version: '1.2' });
    if (yaml().isMap(doc.contents) || yaml().isSeq(doc.contents)) doc.contents.flow = true;
    const text = doc.toString({ lineWidth: 0 }).replace(/\n$/, '');
    this.edits.push({ start: node.range[0], end: node.range[1], text });
  }

  private replacePair(pair: Pair<Node, Node | null>, column: number, value: unknown): void {
    const start = pair.key.range![0];
    let end = this.pairEnd(pair);
    let rendered = this.renderPair(String((pair.key as Scalar).value), value, column);
    if (rendered.includes('\n') && this.source[end - 1] !== '\n') {
      // A comment after the old value would end up inside the new block: keep it on the key's line.
      const lineEnd = this.source.indexOf('\n', end);
      const rest = this.source.slice(end, lineEnd < 0 ? this.source.length : lineEnd).replace(/\r$/, '');
      const comment = /^\s*(#.*)$/.exec(rest)?.[1];
      if (comment !== undefined) {
        const firstBreak = rendered.indexOf('\n');
        rendered = `${rendered.slice(0, firstBreak)} ${comment}${rendered.slice(firstBreak)}`;
        end += rest.length;
      }
    }
    // Block values end after their newline; keep the line break the replaced text had.
    this.edits.push({ start, end, text: this.source[end - 1] === '\n' ? `${rendered}\n` : rendered });
  }

  /** Inserts a new pair after `previous`, or before the map's first surviving pair. */
  private insertPair(firstKept: Pair<Node, Node | null>, previous: Pair<Node, Node | null> | undefined, column: number, key: string, value: unknown): void {
    const text = this.renderPair(key, value, column);
    if (previous) {
      const at = this.lineEndAfter(this.pairEnd(previous));
      const lead = at > 0 && this.source[at - 1] !== '\n' ? '\n' : '';
      this.edits.push({ start: at, end: at, text: `${lead}${' '.repeat(column)}${text}\n` });
      return;
    }
    const keyStart = firstKept.key.range![0];
    if (this.startsLine(keyStart)) {
      const lineStart = keyStart - column;
      this.edits.push({ start: lineStart, end: lineStart, text: `${' '.repeat(column)}${text}\n` });
    } else {
      this.edits.push({ start: keyStart, end: keyStart, text: `${text}\n${' '.repeat(column)}` });
    }
  }

  private deletePair(pair: Pair<Node, Node | null>): void {
    const keyStart = pair.key.range![0];
    const lineStart = this.source.lastIndexOf('\n', keyStart - 1) + 1;
    const onlyIndentBefore = this.source.slice(lineStart, keyStart).trim() === '';
    const start = onlyIndentBefore ? lineStart : keyStart;
    this.edits.push({ start, end: this.lineEndAfter(this.pairEnd(pair)), text: '' });
  }

  /** Where a pair's value ends, before any trailing comment. */
  private pairEnd(pair: Pair<Node, Node | null>): number {
    const value = pair.value;
    if (value?.range) return value.range[1];
    const keyEnd = pair.key.range![1];
    const colon = this.source.indexOf(':', keyEnd);
    return colon >= 0 ? colon + 1 : keyEnd;
  }

  private lineEndAfter(position: number): number {
    if (position > 0 && this.source[position - 1] === '\n') return position;
    const newline = this.source.indexOf('\n', position);
    return newline < 0 ? this.source.length : newline + 1;
  }

  /** A map can be edited in place unless `editMap` would give up (checked before planning list edits). */
  private canEditMap(node: YAMLMap, data: Record<string, unknown>): boolean {
    const pairs = node.items.filter(yaml().isPair) as Pair<Node, Node | null>[];
    const keys = new Set(pairs.map((p) => (yaml().isScalar(p.key) && p.key.range ? String(p.key.value) : '\u0000')));
    if (keys.size !== pairs.length || pairs.length === 0 || keys.has('\u0000')) return false;
    const kept = pairs.filter((p) => data[String((p.key as Scalar).value)] !== undefined);
    return kept.length > 0 && (kept[0] === pairs[0] || this.startsLine(pairs[0]!.key.range![0]));
  }

  /** True when only indentation stands before `position` on its line. */
  private startsLine(position: number): boolean {
    return this.source.slice(this.source.lastIndexOf('\n', position - 1) + 1, position).trim() === '';
  }

  private columnOf(position: number): number {
    return position - (this.source.lastIndexOf('\n', position - 1) + 1);
  }

  /** `key: value` rendered as a fresh block, indented to sit at `column`. */
  private renderPair(key: string, value: unknown, column: number): string {
    const text = renderYaml({ [key]: value }).replace(/\n$/, '');
    const pad = ' '.repeat(column);
    return text.split('\n').map((line, i) => (i === 0 || line === '' ? line : pad + line)).join('\n');
  }
}
