/**
 * Compiling and rendering templates. `compile` reads the text once and sorts each placeholder into
 * the family its place allows (spec 8.2's "Where" table, `places.ts`); `render` only fills slots.
 * Filled values are never scanned again: request values, `{{message}}` and MCP arguments go out
 * exactly as the client sent them.
 */
import { dynamicValue, isDynamicValueName } from './dynamic-values.js';
import { messageText } from './message.js';
import { type PlaceRules, type RenderPlace, placeRules } from './places.js';
import type { RequestValues } from './request-values.js';
import { EMPTY_SCOPE, Expander, type VariableScope } from './scope.js';
import { findPlaceholders, mayHavePlaceholders } from './syntax.js';
import { utf8Bytes } from './utf8.js';

export interface McpValues {
  /** The call's arguments (tool call or prompt): `{{args}}` is their JSON, `{{args.name}}` one of them. */
  args?: Readonly<Record<string, unknown>>;
  /** The parts of a resource template URI: `{{params.name}}`. */
  params?: Readonly<Record<string, string>>;
}

export interface RenderContext {
  /** The variables; leave out for none (dynamic values still work). */
  variables?: VariableScope;
  /** The client's request, where the place fills `{{request.*}}`; missing values are empty. */
  request?: RequestValues;
  /** The message answered, where the place fills `{{message}}`. */
  message?: string | Uint8Array;
  /** Arguments of an MCP call, for the MCP places. */
  mcp?: McpValues;
}

type RequestKey =
  | { kind: 'method' | 'path' | 'url' | 'body' | 'unknown' }
  | { kind: 'param' | 'query' | 'header'; name: string };

type Slot =
  | { kind: 'variable'; name: string; dynamic: boolean }
  | { kind: 'request'; key: RequestKey }
  | { kind: 'message' }
  | { kind: 'empty' }
  | { kind: 'args' }
  | { kind: 'arg'; name: string }
  | { kind: 'mcpParam'; name: string };

export interface Template {
  readonly source: string;
  readonly place: RenderPlace;
  /** True when rendering always gives the source back (no placeholder its place fills). */
  readonly isStatic: boolean;
  /** Whether rendering reads the request, so servers can skip building request values. */
  readonly usesRequest: boolean;
  /** Whether rendering reads the request body, so servers can skip reading it. */
  readonly usesRequestBody: boolean;
  render(context?: RenderContext): string;
}

/** Reads `text` once for repeated rendering at `place` (a mock route's body, an SSE event, …). */
export function compile(text: string, place: RenderPlace): Template {
  const rules = placeRules(place);
  if (!rules.templated || !mayHavePlaceholders(text)) return staticTemplate(text, place);
  const literals: string[] = [];
  const raws: string[] = [];
  const slots: Slot[] = [];
  let at = 0;
  for (const placeholder of findPlaceholders(text)) {
    const slot = slotFor(placeholder.name, placeholder.tight, rules);
    if (slot === undefined) continue; // names nothing this place fills: part of the literal text
    literals.push(text.slice(at, placeholder.start));
    raws.push(text.slice(placeholder.start, placeholder.end));
    slots.push(slot);
    at = placeholder.end;
  }
  if (slots.length === 0) return staticTemplate(text, place);
  literals.push(text.slice(at));
  return new CompiledTemplate(text, place, rules, literals, raws, slots);
}

/** Renders `text` once at `place`. For text rendered again and again, `compile` it once instead. */
export function render(text: string, place: RenderPlace, context: RenderContext = {}): string {
  if (!mayHavePlaceholders(text)) {
    placeRules(place); // still refuse an unknown place
    return text;
  }
  return compile(text, place).render(context);
}

function staticTemplate(source: string, place: RenderPlace): Template {
  return { source, place, isStatic: true, usesRequest: false, usesRequestBody: false, render: () => source };
}

function slotFor(name: string, tight: boolean, rules: PlaceRules): Slot | undefined {
  if (tight && name === 'message' && rules.message !== 'no') {
    return rules.message === 'filled' ? { kind: 'message' } : { kind: 'empty' };
  }
  if (rules.request && name.startsWith('request.')) return { kind: 'request', key: requestKey(name.slice(8)) };
  if (rules.mcp) {
    if (name === 'args') return { kind: 'args' };
    if (name.startsWith('args.')) return { kind: 'arg', name: name.slice(5) };
    if (name.startsWith('params.')) return { kind: 'mcpParam', name: name.slice(7) };
  }
  return rules.variables ? { kind: 'variable', name, dynamic: isDynamicValueName(name) } : undefined;
}

function requestKey(key: string): RequestKey {
  switch (key) {
    case 'method':
    case 'path':
    case 'url':
    case 'body':
      return { kind: key };
  }
  // Anything else, e.g. reaching into the body (`request.body.name`), is unknown and renders empty.
  if (key.startsWith('params.') && key.length > 7) return { kind: 'param', name: key.slice(7) };
  if (key.startsWith('query.') && key.length > 6) return { kind: 'query', name: key.slice(6) };
  if (key.startsWith('headers.') && key.length > 8) return { kind: 'header', name: key.slice(8) };
  return { kind: 'unknown' };
}

class CompiledTemplate implements Template {
  readonly isStatic = false;
  readonly usesRequest: boolean;
  readonly usesRequestBody: boolean;
  readonly #literalBytes: number[];
  readonly #rawBytes: number[];

  constructor(
    readonly source: string,
    readonly place: RenderPlace,
    private readonly rules: PlaceRules,
    private readonly literals: string[],
    private readonly raws: string[],
    private readonly slots: Slot[],
  ) {
    this.usesRequest = slots.some((slot) => slot.kind === 'request');
    this.usesRequestBody = slots.some((slot) => slot.kind === 'request' && slot.key.kind === 'body');
    this.#literalBytes = literals.map(utf8Bytes);
    this.#rawBytes = raws.map(utf8Bytes);
  }

  render(context: RenderContext = {}): string {
    const { literals, raws, slots, rules } = this;
    const literalBytes = this.#literalBytes;
    const rawBytes = this.#rawBytes;
    const fill = new Filler(context, rules);
    let text = literals[0]!;
    let bytes = literalBytes[0]!;
    let capped = false;
    for (let i = 0; i < slots.length; i++) {
      let part: string | null = null;
      if (!capped) {
        part = fill.value(slots[i]!);
        if (part !== null) {
          const partBytes = fill.bytes;
          if (bytes + partBytes > rules.maxBytes) {
            capped = true; // this placeholder and all later ones stay as written
            part = null;
          } else {
            bytes += partBytes;
          }
        }
      }
      text += part ?? raws[i]!;
      text += literals[i + 1]!;
      if (!capped) bytes += (part === null ? rawBytes[i]! : 0) + literalBytes[i + 1]!;
    }
    return text;
  }
}

/** Values of one rendering; each client value is read and measured once, however often it is used. */
class Filler {
  bytes = 0;
  #expander: Expander | undefined;
  #message: string | undefined;
  #argsJson: string | undefined;
  /** Sizes of large client texts, made on first need (most renderings have none). */
  #measured: Map<string, number> | undefined;

  constructor(
    private readonly context: RenderContext,
    private readonly rules: PlaceRules,
  ) {}

  /** The slot's text, or null when the placeholder stays as written; its size is left in `bytes`. */
  value(slot: Slot): string | null {
    switch (slot.kind) {
      case 'variable': {
        if (slot.dynamic && this.context.variables?.has(slot.name) !== true) {
          // A dynamic value no user variable overrides: no walk through variables needed.
          const value = dynamicValue(slot.name)!;
          this.bytes = value.length; // ASCII
          return value;
        }
        this.#expander ??= new Expander(this.context.variables ?? EMPTY_SCOPE, this.rules.secrets);
        const text = this.#expander.expand(slot.name, 1);
        this.bytes = this.#expander.bytes;
        return text;
      }
      case 'request':
        return this.#client(this.#requestValue(slot.key));
      case 'message':
        this.#message ??= this.context.message === undefined ? '' : messageText(this.context.message);
        return this.#client(this.#message);
      case 'empty':
        this.bytes = 0;
        return '';
      case 'args':
        this.#argsJson ??= jsonText(this.context.mcp?.args ?? {});
        return this.#client(this.#argsJson);
      case 'arg':
        return this.#client(argText(this.context.mcp?.args, slot.name));
      case 'mcpParam': {
        const params = this.context.mcp?.params;
        return this.#client(params !== undefined && Object.hasOwn(params, slot.name) ? String(params[slot.name]) : '');
      }
    }
  }

  #requestValue(key: RequestKey): string {
    const request = this.context.request;
    if (request === undefined) return '';
    switch (key.kind) {
      case 'method':
        return request.method;
      case 'path':
        return request.path;
      case 'url':
        return request.url;
      case 'body':
        return request.body;
      case 'param':
        return request.param(key.name);
      case 'query':
        return request.query(key.name);
      case 'header':
        return request.header(key.name);
      case 'unknown':
        return '';
    }
  }

  /** A client's text, measured (large ones once per rendering). */
  #client(text: string): string {
    if (text.length < 256) {
      this.bytes = utf8Bytes(text);
      return text;
    }
    this.#measured ??= new Map();
    let size = this.#measured.get(text);
    if (size === undefined) {
      size = utf8Bytes(text);
      this.#measured.set(text, size);
    }
    this.bytes = size;
    return text;
  }
}

function argText(args: Readonly<Record<string, unknown>> | undefined, name: string): string {
  if (args === undefined || !Object.hasOwn(args, name)) return '';
  const value = args[name];
  if (typeof value === 'string') return value;
  return jsonText(value);
}

/** JSON of a client's value; empty for what JSON can't hold (undefined, functions, cycles). */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
