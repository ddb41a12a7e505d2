/**
 * Mock routes are tried in order and the first match answers, so a generated route whose path has
 * a literal segment where another has a parameter (`/pets/mine` and `/pets/{petId}`) must come
 * first, or the parameter would swallow it. Only such pairs move; everything else keeps the
 * document's order, so the file reads like the document.
 */
import { segmentParts } from '../../model/index.js';

export interface OrderedRoute {
  method: string;
  /** The route path, `:name` for parameters. */
  path: string;
}

/**
 * True when `a` must be tried before `b`: both can match one request (same method, same number
 * of segments, each pair equal or one not literal) and at the first segment where they differ
 * `a` is the more literal one: a literal segment before a parameter with text around it
 * (`{Sid}.json`), and that before a whole-segment parameter.
 */
export function winsOver(a: OrderedRoute, b: OrderedRoute): boolean {
  if (a.method !== b.method) return false;
  const left = segments(a.path);
  const right = segments(b.path);
  if (left.length !== right.length) return false;
  let decided: boolean | undefined;
  for (let index = 0; index < left.length; index++) {
    const x = left[index]!;
    const y = right[index]!;
    const xRank = rank(x);
    const yRank = rank(y);
    if (xRank === LITERAL && yRank === LITERAL && x !== y) return false; // two different literals: never the same request
    if (decided === undefined && xRank !== yRank) decided = xRank > yRank;
  }
  return decided === true;
}

/** The routes in document order, each moved just before the first earlier route that would shadow it. */
export function orderRoutes<T extends OrderedRoute>(routes: readonly T[]): T[] {
  const out: T[] = [];
  for (const route of routes) {
    const at = out.findIndex((earlier) => winsOver(route, earlier));
    if (at < 0) out.push(route);
    else out.splice(at, 0, route);
  }
  return out;
}

function segments(path: string): string[] {
  return path.split('/').filter((part) => part !== '');
}

const LITERAL = 2;

/** How literal a segment is: 2 literal, 1 a parameter with text around it, 0 a whole segment or the rest. */
function rank(segment: string): number {
  if (segment === '*') return 0;
  const parts = segmentParts(segment);
  return parts === undefined ? LITERAL : parts.length > 1 ? 1 : 0;
}
