/**
 * The 404 of a mock API that no route answers. When the path with its first segments left out
 * would match a route (`/v1/pets` where the routes say `/pets`), it says so: a mock made from an
 * OpenAPI document (`ferry import --as-server`) has its routes without the document's server path,
 * while the imported requests' `baseUrl` holds it (`http://petstore.swagger.io/v1`), so pointing
 * that variable at the mock with its path kept missed every route.
 */

interface RouteTarget {
  label: string;
  conditions: { matchTarget(method: string, path: string): Record<string, string> | null };
}

/** How many leading segments are tried: a base path is `/v1` or `/api/v3`, rarely deeper. */
const MAX_PREFIX_SEGMENTS = 3;

export function notFoundText(serverName: string, file: string, method: string, path: string, routes: readonly RouteTarget[]): string {
  const text = `No route of the mock API "${serverName}" matches ${method} ${path}. Routes are tried in order; check their methods, paths and match conditions in ${file}.`;
  const hint = prefixHint(method, path, routes);
  return `${text}${hint ? ` ${hint}` : ''}\n`;
}

function prefixHint(method: string, path: string, routes: readonly RouteTarget[]): string | undefined {
  const segments = path.split('/');
  // segments[0] is the empty text before the first slash; keep at least one segment after the prefix.
  for (let cut = 1; cut <= MAX_PREFIX_SEGMENTS && cut < segments.length - 1; cut++) {
    const prefix = segments.slice(0, cut + 1).join('/');
    const rest = `/${segments.slice(cut + 1).join('/')}`;
    const route = routes.find((r) => r.conditions.matchTarget(method, rest) !== null);
    if (route) {
      return `Route "${route.label}" answers ${method} ${rest}: this server's paths do not start with ${prefix}. If the request's base URL (such as {{baseUrl}}) ends in ${prefix}, point it at this server without ${prefix}.`;
    }
  }
  return undefined;
}
