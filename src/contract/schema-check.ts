/**
 * Walks a JSON body against a schema and collects problems (spec 7.1, schema keywords).
 * One walk serves two modes: collecting every problem (with paths, for the message) and
 * probing (stop at the first problem, no text made) for anyOf/oneOf options.
 */
import { MAX_CHECK_STEPS, MAX_COMPOSITION_STEPS, MAX_ITEMS_CHECKED, MEMO_AFTER_COMPOSITION_STEPS, MAX_PROBLEMS_LISTED, MAX_SCHEMA_DEPTH } from '../openapi-document/index.js';
import { formatPath, messages, type BodyPath } from './messages.js';
import type { OpenApiDocument } from '../openapi-document/index.js';
import { SchemaViews, TYPE_BITS, type SchemaView } from './schema-view.js';

/** Problems found in one body: the first ones listed, the rest counted. */
export class Problems {
  readonly listed: string[] = [];
  private readonly seen = new Set<string>();
  unlisted = 0;

  constructor(private readonly limit = MAX_PROBLEMS_LISTED) {}

  /**
   * Adds one problem. The text is made only while the list has room: past the limit a problem
   * is just counted, so a hostile body with millions of problems costs no strings.
   */
  add(make: () => string): void {
    if (this.listed.length >= this.limit) {
      this.unlisted++;
      return;
    }
    const text = make();
    // allOf members may report the same thing twice; say it once.
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.listed.push(text);
  }

  get count(): number {
    return this.listed.length + this.unlisted;
  }

  /** The failure message: one problem per line, then how many more there were. */
  toMessage(): string {
    const lines = [...this.listed];
    if (this.unlisted > 0) lines.push(messages.moreProblems(this.unlisted));
    return lines.join('\n');
  }
}

/**
 * The schemas entered for one body value through allOf/anyOf/oneOf alone, innermost first.
 * Entering one of them again is a reference cycle that made no progress through the body: it
 * contributes nothing, so an allOf member is skipped (adds no constraint) and an anyOf/oneOf
 * option does not match (offers no alternative): `Node: {anyOf: [$ref Node, string]}` is a string.
 * A list whose every option loops back says nothing and passes.
 */
interface CompositionChain {
  readonly view: SchemaView;
  readonly outer: CompositionChain | null;
}

function inChain(view: SchemaView, chain: CompositionChain | null): boolean {
  for (let link = chain; link !== null; link = link.outer) if (link.view === view) return true;
  return false;
}

/** A composition member's result at one body location: probed (no problems kept) or collected. */
const Known = { ProbedFail: 0, ProbedPass: 1, CollectedFail: 2, CollectedPass: 3 } as const;
type Known = (typeof Known)[keyof typeof Known];

/** The root of a body that is not an object, as a memo key (inner locations use their path). */
const ROOT_LOCATION = {};

/** The checker for one document; its schema views are built once and reused for every response. */
export class SchemaChecker {
  private readonly views: SchemaViews;
  /** Work bounds left for the body being checked (spec-silent, see limits.ts). */
  private stepsLeft = 0;
  private compositionStepsLeft = 0;
  /**
   * Counts results that rest on an assumption (a cycle cut, the depth limit, a spent budget):
   * a member's result is remembered only when this did not move while it was checked.
   */
  private assumptions = 0;
  /** Composition members already checked, per body location: objects by identity, others by path. */
  private memo = new Map<object, Map<SchemaView, Known>>();

  /**
   * @param memoAfter composition members tried in one check before results are remembered:
   *   plain bodies never get there and pay nothing for it (tests pass 0 to remember from the start).
   * @param direction `request` when checking what a client sends (the mock's request validation).
   */
  constructor(document: OpenApiDocument, private readonly memoAfter = MEMO_AFTER_COMPOSITION_STEPS, direction: 'response' | 'request' = 'response') {
    this.views = new SchemaViews(document, direction);
  }

  /** Checks `value` against `schema`, adding problems to `problems`. Returns whether it matched. */
  check(value: unknown, schema: unknown, problems: Problems): boolean {
    this.stepsLeft = MAX_CHECK_STEPS;
    this.compositionStepsLeft = MAX_COMPOSITION_STEPS;
    this.memo = new Map();
    try {
      return this.walk(value, this.views.of(schema), null, 1, problems, null);
    } finally {
      this.memo = new Map();
    }
  }

  /**
   * `out` null = probing: return false at the first problem without building any text.
   * `depth` counts schema levels; past the limit the rest of the body is not checked, and so
   * once a work bound is spent (compositions can otherwise branch exponentially).
   */
  private walk(value: unknown, view: SchemaView, path: BodyPath | null, depth: number, out: Problems | null, chain: CompositionChain | null): boolean {
    if (view.any) return true;
    if (depth > MAX_SCHEMA_DEPTH || this.stepsLeft <= 0) {
      this.assumptions++;
      return true;
    }
    this.stepsLeft--;
    if (view.never) return this.fail(out, () => messages.notInSpec(formatPath(path)));

    if (value === null) {
      if (view.nullAllowed) return true;
      if (!view.nullUnconstrained) return this.fail(out, () => messages.nullNotAllowed(formatPath(path)));
      return this.walkCompositions(value, view, path, depth, out, chain);
    }

    if (view.typeMask !== 0 && (view.typeMask & typeBits(value)) === 0) {
      return this.fail(out, () => messages.wrongType(formatPath(path), view.typeLabel, typeName(value)));
    }

    let ok = true;
    if (view.enumValues !== undefined && !inEnum(value, view)) {
      if (!out) return false;
      out.add(() => messages.notInEnum(formatPath(path), value));
      ok = false;
    }
    if (view.hasConst && !deepEqual(value, view.constValue)) {
      if (!out) return false;
      out.add(() => messages.notConst(formatPath(path), value, view.constValue));
      ok = false;
    }

    if (typeof value === 'string') {
      if (view.maxLength !== undefined && value.length > view.maxLength && characterCount(value) > view.maxLength) {
        if (!out) return false;
        out.add(() => messages.tooLong(formatPath(path)));
        ok = false;
      }
      if (view.minLength !== undefined && characterCount(value) < view.minLength) {
        if (!out) return false;
        out.add(() => messages.tooShort(formatPath(path)));
        ok = false;
      }
    } else if (typeof value === 'number') {
      const problem = boundsProblem(value, view, path);
      if (problem !== undefined) {
        if (!out) return false;
        out.add(problem);
        ok = false;
      }
    } else if (typeof value === 'object') {
      const walked = Array.isArray(value)
        ? this.walkArray(value, view, path, depth, out)
        : this.walkObject(value as Record<string, unknown>, view, path, depth, out);
      if (!walked) {
        if (!out) return false;
        ok = false;
      }
    }

    if (view.allOf.length === 0 && view.anyOf.length === 0 && view.oneOf.length === 0) return ok;
    return this.walkCompositions(value, view, path, depth, out, chain) && ok;
  }

  private walkCompositions(value: unknown, view: SchemaView, path: BodyPath | null, depth: number, out: Problems | null, outer: CompositionChain | null): boolean {
    const links = this.views.linksOf(view);
    const chain: CompositionChain = { view, outer };
    let ok = true;
    for (const member of links.allOf) {
      if (inChain(member, chain)) {
        this.assumptions++;
        continue;
      }
      if (!this.member(value, member, path, depth, out, chain)) {
        if (!out) return false;
        ok = false;
      }
    }
    // oneOf is checked like anyOf: matching several options passes.
    if (links.anyOf.length > 0 && !this.matchesSome(value, links.anyOf, path, depth, chain)) {
      if (!out) return false;
      out.add(() => messages.noAnyOfMatch(formatPath(path)));
      ok = false;
    }
    if (links.oneOf.length > 0 && !this.matchesSome(value, links.oneOf, path, depth, chain)) {
      if (!out) return false;
      out.add(() => messages.noOneOfMatch(formatPath(path)));
      ok = false;
    }
    return ok;
  }

  private matchesSome(value: unknown, options: readonly SchemaView[], path: BodyPath | null, depth: number, chain: CompositionChain): boolean {
    let tried = false;
    for (const option of options) {
      if (inChain(option, chain)) {
        this.assumptions++;
        continue;
      }
      tried = true;
      if (this.member(value, option, path, depth, null, chain)) return true;
    }
    // Options that all loop back offer no alternative at all: such a list says nothing.
    return !tried;
  }

  /**
   * Checks one allOf member or anyOf/oneOf option. A schema reached again at the same body
   * location by another route (`anyOf: [L1, L1]`, each level alike) gives its remembered
   * result, so shared schemas cost one check per location instead of one per route.
   */
  private member(value: unknown, view: SchemaView, path: BodyPath | null, depth: number, out: Problems | null, chain: CompositionChain): boolean {
    const location = typeof value === 'object' && value !== null ? value : (path ?? ROOT_LOCATION);
    let known = this.remembering() ? this.memo.get(location) : undefined;
    const before = known?.get(view);
    // A collected result serves both modes; a probed one only probing (its problems were not kept).
    if (before !== undefined && (out === null || before >= Known.CollectedFail)) return before === Known.ProbedPass || before === Known.CollectedPass;
    if (this.compositionStepsLeft <= 0) {
      this.assumptions++;
      return true;
    }
    this.compositionStepsLeft--;
    const assumptionsBefore = this.assumptions;
    const ok = this.walk(value, view, path, depth + 1, out, chain);
    if (this.assumptions === assumptionsBefore && this.remembering()) {
      known ??= this.memo.get(location);
      if (known === undefined) this.memo.set(location, (known = new Map()));
      known.set(view, out === null ? (ok ? Known.ProbedPass : Known.ProbedFail) : ok ? Known.CollectedPass : Known.CollectedFail);
    }
    return ok;
  }

  /** Whether enough members were tried in this check for remembering their results to pay. */
  private remembering(): boolean {
    return MAX_COMPOSITION_STEPS - this.compositionStepsLeft >= this.memoAfter;
  }

  private walkArray(value: unknown[], view: SchemaView, path: BodyPath | null, depth: number, out: Problems | null): boolean {
    let ok = true;
    const { maxItems, minItems } = view;
    if (maxItems !== undefined && value.length > maxItems) {
      if (!out) return false;
      out.add(() => messages.tooManyItems(formatPath(path), value.length, maxItems));
      ok = false;
    }
    if (minItems !== undefined && value.length < minItems) {
      if (!out) return false;
      out.add(() => messages.tooFewItems(formatPath(path), value.length, minItems));
      ok = false;
    }
    if (view.items === undefined) return ok;
    const itemView = this.views.linksOf(view).items!;
    if (itemView.any) return ok;
    const checked = Math.min(value.length, MAX_ITEMS_CHECKED);
    const onlyTypeMask = itemView.onlyTypeMask;
    for (let index = 0; index < checked; index++) {
      if ((onlyTypeMask & typeBits(value[index])) !== 0) continue;
      if (!this.walk(value[index], itemView, { parent: path, key: index }, depth + 1, out, null)) {
        if (!out) return false;
        ok = false;
      }
    }
    return ok;
  }

  private walkObject(value: Record<string, unknown>, view: SchemaView, path: BodyPath | null, depth: number, out: Problems | null): boolean {
    const required = view.required;
    if (required.length === 0 && view.properties === undefined && view.additional === undefined) return true;
    const { fields, additional, requiredCount } = this.views.linksOf(view);
    const forbidExtra = view.additional === false;
    let ok = true;
    let requiredSeen = 0;
    // One pass over the body's fields: V8 reads `value[key]` inside `for…in` from the object's
    // own layout, far faster than looking each documented name up.
    for (const key in value) {
      const field = value[key];
      const rule = fields.get(key);
      let fieldView: SchemaView | undefined;
      if (rule !== undefined) {
        if (rule.required) requiredSeen++;
        fieldView = rule.view;
      }
      if (fieldView === undefined) {
        if (forbidExtra) {
          if (!out) return false;
          out.add(() => messages.notInSpec(formatPath({ parent: path, key })));
          ok = false;
          continue;
        }
        if (additional === undefined) continue;
        fieldView = additional;
      }
      if (fieldView.any || (fieldView.onlyTypeMask & typeBits(field)) !== 0) continue;
      if (!this.walk(field, fieldView, { parent: path, key }, depth + 1, out, null)) {
        if (!out) return false;
        ok = false;
      }
    }
    if (requiredSeen === requiredCount) return ok;
    if (!out) return false;
    for (const name of new Set(required)) {
      if (!Object.hasOwn(value, name)) out.add(() => messages.missingRequired(formatPath(path), name));
    }
    return false;
  }

  private fail(out: Problems | null, text: () => string): false {
    out?.add(text);
    return false;
  }
}

/** The type bits a JSON value satisfies: a whole number is both `number` and `integer` (3.0 too). */
function typeBits(value: unknown): number {
  if (value === null) return TYPE_BITS.null!;
  switch (typeof value) {
    case 'string':
      return TYPE_BITS.string!;
    case 'number':
      return Number.isInteger(value) ? TYPE_BITS.number! | TYPE_BITS.integer! : TYPE_BITS.number!;
    case 'boolean':
      return TYPE_BITS.boolean!;
    default:
      return Array.isArray(value) ? TYPE_BITS.array! : TYPE_BITS.object!;
  }
}

/** The type of a JSON value as messages name it. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function inEnum(value: unknown, view: SchemaView): boolean {
  if (view.enumSet !== undefined && (value === null || typeof value !== 'object')) return view.enumSet.has(value);
  return view.enumValues!.some((candidate) => deepEqual(candidate, value));
}

/** JSON equality: numbers by value, objects by their fields regardless of order. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return left.length === other.length && left.every((item, index) => deepEqual(item, other[index]));
  }
  const leftObject = left as Record<string, unknown>;
  const rightObject = right as Record<string, unknown>;
  const keys = Object.keys(leftObject);
  if (keys.length !== Object.keys(rightObject).length) return false;
  return keys.every((key) => Object.hasOwn(rightObject, key) && deepEqual(leftObject[key], rightObject[key]));
}

/** Length in characters (code points), as the spec counts it, not UTF-16 units. */
function characterCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

function boundsProblem(value: number, view: SchemaView, path: BodyPath | null): (() => string) | undefined {
  if (view.minimum !== undefined && value < view.minimum) return () => messages.belowMinimum(formatPath(path), value, view.minimum!);
  if (view.exclusiveMinimum !== undefined && value <= view.exclusiveMinimum) return () => messages.notAbove(formatPath(path), value, view.exclusiveMinimum!);
  if (view.maximum !== undefined && value > view.maximum) return () => messages.aboveMaximum(formatPath(path), value, view.maximum!);
  if (view.exclusiveMaximum !== undefined && value >= view.exclusiveMaximum) return () => messages.notBelow(formatPath(path), value, view.exclusiveMaximum!);
  return undefined;
}
