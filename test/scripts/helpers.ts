import type { PostResponseContext, PreRequestContext, ScriptResponse, ScriptSource } from '../../src/scripts/index.js';

export function scripts(...codes: string[]): ScriptSource[] {
  return codes.map((code, i) => ({ code, label: `script ${i + 1}` }));
}

export function preContext(codes: string[], overrides: Partial<PreRequestContext> = {}): PreRequestContext {
  return {
    scripts: scripts(...codes),
    request: { name: 'Get user', method: 'GET', url: 'http://127.0.0.1:1/users/1?a=1', headers: [{ key: 'Accept', value: 'application/json' }] },
    variables: { environment: { base: 'http://127.0.0.1:1' }, environmentName: 'Local', collection: { c: 'coll' }, globals: { g: 'glob' } },
    info: { requestName: 'Get user', requestPath: 'Users/Get user.yaml', iteration: 0 },
    ...overrides,
  };
}

export function jsonResponse(body: unknown, code = 200, headers: [string, string][] = []): ScriptResponse {
  const text = JSON.stringify(body);
  return {
    code,
    headers: [['Content-Type', 'application/json'], ...headers],
    body: text,
    responseTime: 12,
    responseSize: Buffer.byteLength(text),
  };
}

export function postContext(codes: string[], response: ScriptResponse, overrides: Partial<PostResponseContext> = {}): PostResponseContext {
  return { ...preContext(codes), response, ...overrides };
}
