/**
 * The headers Ferry adds at send time unless the request sets them (spec 4.7), decided here for
 * every client that sends a saved HTTP request: `ferry run` and the app (http.ts) and load tests
 * (load/plan.ts), so a load test of a request sends what a run of it sends.
 */
import { packageVersion } from '../../support/package-root.js';

const USER_AGENT = ((): string => {
  try {
    return `Ferry/${packageVersion()}`;
  } catch {
    return 'Ferry';
  }
})();

/**
 * Headers every client sends unless the request sets them, as Postman and curl do: a User-Agent
 * (some APIs refuse requests without one), `Accept: *\/*` (spec 4.7 names it among the headers
 * added at send time; Postman, Insomnia and curl send it) and, with `decompress` on, the
 * encodings Ferry decodes (servers compress only when asked).
 */
export function defaultHeaders(headers: readonly (readonly [string, string])[], options: { decompress: boolean }): [string, string][] {
  const has = (name: string) => headers.some(([key]) => key.toLowerCase() === name);
  const out: [string, string][] = [];
  if (!has('user-agent')) out.push(['User-Agent', USER_AGENT]);
  if (!has('accept')) out.push(['Accept', '*/*']);
  if (options.decompress && !has('accept-encoding')) out.push(['Accept-Encoding', 'gzip, deflate, br, zstd']);
  return out;
}
