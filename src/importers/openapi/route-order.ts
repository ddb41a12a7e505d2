/**
 * Mock routes are tried in order and the first match answers, so a generated route whose path has
 * a literal segment where another has a parameter (`/pets/mine` and `/pets/{petId}`) must come
 * first, or the parameter would swallow it. Only such pairs move; everything else keeps the
 * document's order, so the file reads like the document.
 */

export interface OrderedRoute {
  method: string;
  /** The route path, `:name` for parameters. */
  path: string;
}

/**
 * True when `a` must be tried before `b`: both can match one request (same method, same number
 * of segments, each pair equal or one a parameter) and at the first segment where they differ
 * `a` is literal and `b` a parameter.
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
    const xParam = isParam(x);
    const yParam = isParam(y);
    if (!xParam && !yParam && x !== y) return false; // two different literals: never the same request
    if (decided === undefined && xParam !== yParam) decided = !xParam;
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

function isParam(segment: string): boolean {
  return segment.startsWith(':') || segment === '*';
}
