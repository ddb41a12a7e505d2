/**
 * Which variables are defined, and what a variable's placeholder expands to (spec 2.10, 8.2).
 *
 * Order: `--var` overrides, then the active environment (values set by scripts on this computer
 * first, then the file), then the workspace variables (same); the first definition wins. A disabled
 * variable defines nothing. A secret variable is filled only where its place allows secrets
 * (requests), and only with the value this computer's secret store gives.
 */
import type { Variable } from '../model/index.js';
import { dynamicValue } from './dynamic-values.js';
import { TEMPLATE_LIMITS } from './limits.js';
import { findPlaceholders } from './syntax.js';
import { utf8Bytes } from './utf8.js';
import { templateText } from './value-text.js';

export type VariableOrigin = 'override' | 'environment' | 'workspace';

/** Values by name: a Map, or a plain object (own properties only). */
export type ValuesByName = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

export interface VariableLayer {
  variables: readonly Pick<Variable, 'key' | 'value' | 'enabled' | 'secret'>[];
  /** Values set by scripts on this computer (JSON data; filled as `templateText` gives them); they win over the file's values. */
  scriptValues?: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;
}

export interface VariableScopeInput {
  /**
   * The CLI's `--var key=value` (and a run's data row): wins over everything. `undefined` defines
   * the name with nothing to fill: its placeholder stays as written (a data row's null, as Newman).
   */
  overrides?: ReadonlyMap<string, string | undefined> | ValuesByName;
  /** The active environment, if any. */
  environment?: VariableLayer;
  /** The workspace (collection) variables. */
  workspace?: VariableLayer;
  /**
   * This computer's secret store. Leave it out for servers: their templates never get secrets.
   * Returning undefined (no value stored) leaves the placeholder as written.
   */
  secrets?: (key: string, origin: 'environment' | 'workspace') => string | undefined;
}

interface Definition {
  /** Undefined: defined, but no value can be filled (a secret with nothing stored). */
  value: string | undefined;
  secret: boolean;
  origin: VariableOrigin;
  parsed?: ParsedValue;
}

/** A variable's value split into literal text and the placeholders inside it. */
interface ParsedValue {
  literals: string[];
  literalBytes: number[];
  names: string[];
  raws: string[];
  rawBytes: number[];
}

type Memo = { text: string; bytes: number } | 'too big';

export class VariableScope {
  readonly #definitions: Map<string, Definition>;
  /** Expansions that are the same every time (no dynamic value, no cycle cut), by secrets rule, name, level. */
  readonly #memo: [Map<string, Memo[]>, Map<string, Memo[]>] = [new Map(), new Map()];

  /** @internal use buildVariableScope */
  constructor(definitions: Map<string, Definition>) {
    this.#definitions = definitions;
  }

  /** True when a variable of this name is defined (secret ones included). */
  has(name: string): boolean {
    return this.#definitions.has(name);
  }

  /** Where a defined variable comes from, and whether it is secret; for editors and messages. */
  describe(name: string): { origin: VariableOrigin; secret: boolean } | undefined {
    const found = this.#definitions.get(name);
    return found === undefined ? undefined : { origin: found.origin, secret: found.secret };
  }

  /** Names of all defined variables, in definition order. */
  names(): string[] {
    return [...this.#definitions.keys()];
  }

  /**
   * A variable's value with its nested placeholders filled, as `{{name}}` would be; undefined when
   * the placeholder would stay as written (undefined, secret where not allowed, too big).
   */
  resolve(name: string, options: { allowSecrets: boolean }): string | undefined {
    const expander = new Expander(this, options.allowSecrets);
    const text = expander.expand(name, 1);
    return text ?? undefined;
  }

  /** @internal */ definition(name: string): Definition | undefined {
    return this.#definitions.get(name);
  }

  /** @internal */ memo(allowSecrets: boolean): Map<string, Memo[]> {
    return this.#memo[allowSecrets ? 1 : 0];
  }
}

export const EMPTY_SCOPE = new VariableScope(new Map());

export function buildVariableScope(input: VariableScopeInput): VariableScope {
  const definitions = new Map<string, Definition>();
  for (const [key, value] of overrideEntries(input.overrides)) {
    if (!definitions.has(key)) definitions.set(key, { value, secret: false, origin: 'override' });
  }
  addLayer(definitions, input.environment, 'environment', input.secrets);
  addLayer(definitions, input.workspace, 'workspace', input.secrets);
  return new VariableScope(definitions);
}

function addLayer(
  definitions: Map<string, Definition>,
  layer: VariableLayer | undefined,
  origin: 'environment' | 'workspace',
  secrets: VariableScopeInput['secrets'],
): void {
  if (layer === undefined) return;
  const scriptValues = new Map(storedEntries(layer.scriptValues));
  const seen = new Set<string>();
  for (const variable of layer.variables) {
    const key = variable.key;
    // The first row of a key decides for the file; a disabled row defines nothing, so a later
    // enabled row of the same key may still define it.
    if (seen.has(key) || variable.enabled === false) continue;
    seen.add(key);
    if (definitions.has(key)) continue;
    const scripted = scriptValues.get(key);
    if (variable.secret === true) {
      const stored = scripted ?? secrets?.(key, origin);
      // Only text counts: a careless store lookup (`obj[key]`) may hand back Object.prototype members.
      definitions.set(key, { value: typeof stored === 'string' ? stored : undefined, secret: true, origin });
    } else {
      definitions.set(key, { value: scripted ?? variable.value ?? '', secret: false, origin });
    }
  }
  // Scripts may also create variables the file doesn't have; a disabled row in the file stays undefined.
  const disabled = new Set(layer.variables.filter((v) => v.enabled === false).map((v) => v.key));
  for (const [key, value] of scriptValues) {
    if (seen.has(key) || disabled.has(key) || definitions.has(key)) continue;
    definitions.set(key, { value, secret: false, origin });
  }
}

/** Script-set values as text: JSON data as Postman fills it; anything else (not JSON data) defines nothing. */
function storedEntries(values: VariableLayer['scriptValues']): [string, string][] {
  if (values === undefined) return [];
  const entries = values instanceof Map ? [...values.entries()] : Object.entries(values as Record<string, unknown>);
  return entries.filter(([, value]) => value !== undefined && typeof value !== 'function').map(([key, value]) => [key, templateText(value)]);
}

function overrideEntries(values: VariableScopeInput['overrides']): Iterable<[string, string | undefined]> {
  return values instanceof Map ? values.entries() : entriesOf(values as ValuesByName | undefined);
}

function entriesOf(values: ValuesByName | undefined): Iterable<[string, string]> {
  if (values === undefined) return [];
  if (values instanceof Map) return values.entries();
  return Object.entries(values as Record<string, string>).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
}

function parseValue(value: string): ParsedValue {
  const literals: string[] = [];
  const names: string[] = [];
  const raws: string[] = [];
  let at = 0;
  for (const placeholder of findPlaceholders(value)) {
    literals.push(value.slice(at, placeholder.start));
    names.push(placeholder.name);
    raws.push(value.slice(placeholder.start, placeholder.end));
    at = placeholder.end;
  }
  literals.push(value.slice(at));
  return { literals, literalBytes: literals.map(utf8Bytes), names, raws, rawBytes: raws.map(utf8Bytes) };
}

/**
 * One rendering's walk through variable values. `expand` returns the text, or null when the
 * placeholder stays as written; it leaves the text's size in `bytes` and whether the result is the
 * same every time (no dynamic value, no cycle cut, no budget cut) in `pure`.
 */
export class Expander {
  bytes = 0;
  pure = true;
  #visits = 0;
  /** The variables being expanded, outermost first (made on first need: most renderings nest nothing). */
  #stack: string[] | undefined;
  /** Expansions found too big earlier in this rendering (`level:name`), even impure ones: not tried twice. */
  #tooBig: Set<string> | undefined;
  readonly #memo: Map<string, Memo[]>;

  constructor(
    private readonly scope: VariableScope,
    private readonly allowSecrets: boolean,
  ) {
    this.#memo = scope.memo(allowSecrets);
  }

  /** Expands `{{name}}` met at nesting `level` (1 = written in the template itself). */
  expand(name: string, level: number): string | null {
    const definition = this.scope.definition(name);
    if (definition === undefined) {
      const dynamic = dynamicValue(name);
      this.pure = dynamic === undefined;
      this.bytes = dynamic === undefined ? 0 : dynamic.length; // dynamic values are ASCII
      return dynamic ?? null;
    }
    this.pure = true;
    this.bytes = 0;
    if (definition.value === undefined || (definition.secret && !this.allowSecrets)) return null;
    if (level > TEMPLATE_LIMITS.maxNestingLevels) return null; // depends only on the level: still pure
    if (this.#stack?.includes(name)) {
      this.pure = false; // a cycle: the answer depends on the way here
      return null;
    }
    const memoRow = this.#memo.get(name);
    const memo = memoRow?.[level];
    if (memo !== undefined) {
      if (memo === 'too big') return null;
      this.bytes = memo.bytes;
      return memo.text;
    }
    definition.parsed ??= parseValue(definition.value);
    const attempt = `${level}:${name}`;
    if (this.#tooBig?.has(attempt)) {
      this.pure = false;
      return null;
    }
    const result = this.#expandParsed(name, definition.parsed, level);
    if (result === null && !this.pure) (this.#tooBig ??= new Set()).add(attempt);
    if (this.pure) {
      const row = memoRow ?? [];
      row[level] = result === null ? 'too big' : { text: result, bytes: this.bytes };
      if (memoRow === undefined) this.#memo.set(name, row);
    }
    return result;
  }

  #expandParsed(name: string, parsed: ParsedValue, level: number): string | null {
    const cap = TEMPLATE_LIMITS.maxExpansionBytes;
    const { literals, literalBytes, names, raws, rawBytes } = parsed;
    let bytes = literalBytes[0]!;
    let text = literals[0]!;
    let pure = true;
    if (names.length > 0) {
      this.#visits += names.length;
      if (this.#visits > TEMPLATE_LIMITS.maxNestedVisits) {
        this.pure = false;
        return null;
      }
    }
    const stack = (this.#stack ??= []);
    stack.push(name);
    try {
      for (let i = 0; i < names.length; i++) {
        if (bytes > cap) break;
        let part = this.expand(names[i]!, level + 1);
        let partBytes = this.bytes;
        if (!this.pure) pure = false;
        if (part === null) {
          part = raws[i]!;
          partBytes = rawBytes[i]!;
        }
        text += part;
        text += literals[i + 1]!;
        bytes += partBytes + literalBytes[i + 1]!;
      }
    } finally {
      stack.pop();
    }
    this.pure = pure;
    if (bytes > cap) return null;
    this.bytes = bytes;
    return text;
  }
}
