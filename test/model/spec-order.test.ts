/**
 * The written field order of spec 2.2 (the workspace file), 2.3 and 2.8 (requests and their kind
 * options), 2.4 (key/value rows), 2.5–2.7 (bodies, auth, settings and scripts), 2.9 (folders), 2.10 (environments and variables), 2.11 (servers
 * and every section) and 2.12 (load tests), written out again here from the spec's tables (not
 * read from the code): a file Ferry writes whole holds its fields in the tables' order, whatever
 * order the value came in (here: every mapping reversed). Every field is given a value other than
 * its default, so none is left out. Ferry's additions the spec does not list (a TCP request's
 * `encoding`, a WebSocket server's `cors`, a mock's `openapi`, a request's `examples`) are left out.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseResource, type ResourceKind, type ResourceValue } from '../../src/model/index.js';
import { saveResource } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

/** The same mapping with its keys in reverse order, at every depth. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
  return value;
}

async function written(kind: ResourceKind, data: Record<string, unknown>): Promise<Record<string, any>> {
  const parsed = parseResource(kind, reversed(data));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const file = path.join(await tempDir(), 'item.yaml');
  await saveResource(file, kind, parsed.value as ResourceValue<typeof kind>);
  return parse(await fs.readFile(file, 'utf8')) as Record<string, any>;
}

const keys = (value: unknown) => Object.keys(value as object);

describe('spec 2.3 and 2.8: a request file', () => {
  it('top-level fields, then each kind option section in its table order', async () => {
    const file = await written('request', {
      name: 'R', kind: 'mqtt', seq: 1, method: 'POST', url: 'mqtt://127.0.0.1', disabledParams: [{ key: 'a' }], pathParams: [{ key: 'b' }],
      paramDescriptions: [{ key: 'c' }], headers: [{ key: 'd' }], body: { type: 'text', text: 't' }, auth: { type: 'none' },
      settings: { timeoutMs: 5 }, scripts: { preRequest: 'x' },
      socket: { framing: 'line', lengthBytes: 4, lineEnding: 'lf', broadcast: true },
      dns: { server: '127.0.0.1', recursion: false },
      mqtt: { clientId: 'c', version: 'v5', cleanSession: false, keepAliveSecs: 5, subscriptions: [{ topic: 't', qos: 1, enabled: false }], topic: 't', qos: 1, retain: true },
      grpc: { protoFiles: ['a.proto'], importPaths: ['p'] },
      socketio: { path: '/io/', transport: 'polling', auth: '{}', event: 'e', ack: true },
      mcp: { transport: 'stdio', call: 'prompt', name: 'n', arguments: '{}', cwd: 'w', env: [{ key: 'K', value: 'V', enabled: false }] },
      docs: 'd', openapi: { operation: 'GET /x', removed: true },
    });
    expect(keys(file)).toEqual(['name', 'kind', 'seq', 'method', 'url', 'disabledParams', 'pathParams', 'paramDescriptions', 'headers', 'body', 'auth', 'settings', 'scripts', 'socket', 'dns', 'mqtt', 'grpc', 'socketio', 'mcp', 'docs', 'openapi']);
    expect(keys(file.socket)).toEqual(['framing', 'lengthBytes', 'lineEnding', 'broadcast']);
    expect(keys(file.dns)).toEqual(['server', 'recursion']);
    expect(keys(file.mqtt)).toEqual(['clientId', 'version', 'cleanSession', 'keepAliveSecs', 'subscriptions', 'topic', 'qos', 'retain']);
    expect(keys(file.mqtt.subscriptions[0])).toEqual(['topic', 'qos', 'enabled']);
    expect(keys(file.grpc)).toEqual(['protoFiles', 'importPaths']);
    expect(keys(file.socketio)).toEqual(['path', 'transport', 'auth', 'event', 'ack']);
    expect(keys(file.mcp)).toEqual(['transport', 'call', 'name', 'arguments', 'cwd', 'env']);
    expect(keys(file.mcp.env[0])).toEqual(['key', 'value', 'enabled']);
    expect(keys(file.openapi)).toEqual(['operation', 'removed']);
  });
});

describe('spec 2.2, 2.4, 2.9 and 2.10: the workspace file, key/value rows, folders, environments and variables', () => {
  const row = { key: 'k', value: 'v', enabled: false, description: 'd' };
  const variable = { key: 'k', value: 'v', enabled: false, secret: false };
  const scripts = { preRequest: 'a', postResponse: 'b' };

  it('the workspace file: version, id, name, variables, auth, headers, scripts, docs', async () => {
    const file = await written('workspace', { version: 1, id: 'w', name: 'W', variables: [variable], auth: { type: 'bearer', token: 't' }, headers: [row], scripts, docs: 'd' });
    expect(keys(file)).toEqual(['version', 'id', 'name', 'variables', 'auth', 'headers', 'scripts', 'docs']);
    expect(keys(file.variables[0])).toEqual(['key', 'value', 'enabled']); // secret: false is the default
    expect(keys(file.headers[0])).toEqual(['key', 'value', 'enabled', 'description']);
    expect(keys(file.scripts)).toEqual(['preRequest', 'postResponse']);
  });

  it('a key/value row in every place a request holds one; a secret variable has no value', async () => {
    const file = await written('request', {
      name: 'R', url: 'http://h/', disabledParams: [row], pathParams: [row], paramDescriptions: [row], headers: [row],
      body: { type: 'formUrlencoded', form: [row] },
    });
    for (const rows of [file.disabledParams, file.pathParams, file.paramDescriptions, file.headers, file.body.form]) expect(keys(rows[0])).toEqual(['key', 'value', 'enabled', 'description']);
    const environment = await written('environment', { name: 'E', variables: [{ ...variable, value: '', secret: true }, variable] });
    expect(keys(environment)).toEqual(['name', 'variables']);
    expect(environment.variables).toEqual([{ key: 'k', enabled: false, secret: true }, { key: 'k', value: 'v', enabled: false }]);
  });

  it('a folder: name, seq, auth, headers, scripts, docs, openapi (spec, source, validate)', async () => {
    const file = await written('folder', {
      name: 'F', seq: 2, auth: { type: 'basic', username: 'u', password: 'p' }, headers: [row], scripts, docs: 'd',
      openapi: { spec: 'specs/a.yaml', source: 'a.yaml', validate: false },
    });
    expect(keys(file)).toEqual(['name', 'seq', 'auth', 'headers', 'scripts', 'docs', 'openapi']);
    expect(keys(file.openapi)).toEqual(['spec', 'source', 'validate']);
    expect(keys(file.auth)).toEqual(['type', 'username', 'password']);
  });
});

describe('spec 2.5, 2.6 and 2.7: the body, auth, settings and scripts of a request', () => {
  it('the body, its multipart parts and its GraphQL fields in their tables\' order', async () => {
    const file = await written('request', {
      name: 'R', url: 'http://h/',
      body: {
        type: 'graphql', text: 't', contentType: 'text/csv', form: [{ key: 'f' }],
        multipart: [{ key: 'k', value: 'v', file: true, contentType: 'text/csv', enabled: false }], file: 'b.bin',
        graphql: { query: 'q', variables: '{}', operationName: 'o', transport: 'sse', subscriptionUrl: 'http://h/s', connectionParams: '{}' },
      },
    });
    expect(keys(file.body)).toEqual(['type', 'text', 'contentType', 'form', 'multipart', 'file', 'graphql']);
    expect(keys(file.body.multipart[0])).toEqual(['key', 'value', 'file', 'contentType', 'enabled']);
    expect(keys(file.body.graphql)).toEqual(['query', 'variables', 'operationName', 'transport', 'subscriptionUrl', 'connectionParams']);
  });

  it('each auth type\'s fields, OAuth 2.0\'s in the table order', async () => {
    const auth = async (value: Record<string, unknown>) => (await written('request', { name: 'R', url: 'http://h/', auth: value })).auth;
    expect(keys(await auth({ type: 'bearer', token: 't', prefix: 'Token' }))).toEqual(['type', 'token', 'prefix']);
    expect(keys(await auth({ type: 'apiKey', key: 'k', value: 'v', location: 'query' }))).toEqual(['type', 'key', 'value', 'location']);
    expect(keys(await auth({
      type: 'oauth2', grantType: 'authorizationCode', tokenUrl: 't', authUrl: 'a', redirectUri: 'http://127.0.0.1:1/cb', clientId: 'i', clientSecret: 's',
      scope: 'sc', audience: 'au', username: 'u', password: 'p', clientAuth: 'body', pkce: false, headerPrefix: '',
    }))).toEqual(['type', 'grantType', 'tokenUrl', 'authUrl', 'redirectUri', 'clientId', 'clientSecret', 'scope', 'audience', 'username', 'password', 'clientAuth', 'pkce', 'headerPrefix']);
  });

  it('settings (repeat and stream last, each in its order) and scripts', async () => {
    const file = await written('request', {
      name: 'R', url: 'http://h/',
      settings: {
        timeoutMs: 1, followRedirects: false, maxRedirects: 1, verifyTls: false, httpVersion: 'http2', decompress: false,
        repeat: { condition: 'true', intervalMs: 1, timeoutMs: 2 }, stream: { event: 'e', maxEvents: 1, timeoutMs: 2 },
      },
      scripts: { preRequest: 'a', postResponse: 'b' },
    });
    expect(keys(file.settings)).toEqual(['timeoutMs', 'followRedirects', 'maxRedirects', 'verifyTls', 'httpVersion', 'decompress', 'repeat', 'stream']);
    expect(keys(file.settings.repeat)).toEqual(['condition', 'intervalMs', 'timeoutMs']);
    expect(keys(file.settings.stream)).toEqual(['event', 'maxEvents', 'timeoutMs']);
    expect(keys(file.scripts)).toEqual(['preRequest', 'postResponse']);
  });
});

describe('spec 2.11: a server file', () => {
  it('common fields, then the sections in the table order, each section and its items in theirs', async () => {
    const file = await written('server', {
      name: 'S', kind: 'tcp', seq: 1, host: '0.0.0.0', port: 9, tls: { enabled: true, certPath: 'c.pem', keyPath: 'k.pem' }, autoStart: true,
      http: {
        routes: [{ name: 'r', method: 'GET', path: '/x', status: 201, headers: [{ key: 'h' }], body: 'b', delayMs: 1, matchQuery: [{ key: 'q' }], matchHeaders: [{ key: 'm' }], matchBody: 'mb', fault: 'error', faultPercent: 5, enabled: false }],
        fallback: 'proxy', proxyUrl: 'http://127.0.0.1:1', cors: true,
      },
      websocket: { mode: 'rules', greeting: 'g', rules: [{ match: 'exact', pattern: 'p', reply: 'r', delayMs: 1, enabled: false }], lineEnding: 'lf' },
      socketio: {
        mode: 'rules', greetingEvent: 'e', greetingArgs: '[]',
        rules: [{ event: 'e', match: 'exact', pattern: 'p', ack: true, replyEvent: 'r', replyArgs: '[]', broadcast: true, delayMs: 1, enabled: false }],
        path: '/io/', cors: true,
      },
      mcp: {
        serverName: 'n', version: '2', instructions: 'i',
        tools: [{ name: 't', title: 'T', description: 'd', inputSchema: '{}', outputSchema: '{}', result: 'r', isError: true, delayMs: 1, enabled: false }],
        resources: [{ uri: 'u://x', name: 'n', title: 'T', description: 'd', mimeType: 'text/plain', text: 't', enabled: false }],
        prompts: [{ name: 'p', title: 'T', description: 'd', arguments: [{ name: 'a', description: 'd', required: true }], messages: [{ role: 'assistant', text: 't' }], enabled: false }],
        path: '/m', cors: true,
      },
      sse: { events: [{ event: 'e', data: 'd', id: 'i' }], intervalMs: 1, repeat: true },
      socket: { mode: 'rules', greeting: 'g', rules: [{ match: 'exact', pattern: 'p', reply: 'r', delayMs: 1, enabled: false }], encoding: 'hex', framing: 'line', lengthBytes: 4, lineEnding: 'lf' },
      dns: { records: [{ name: 'a.test', type: 'MX', value: '1 b.test', ttl: 5, enabled: false }], upstream: 'system' },
      proxy: { target: '127.0.0.1:1', upstreamTls: true },
      docs: 'd',
    });
    expect(keys(file)).toEqual(['name', 'kind', 'seq', 'host', 'port', 'tls', 'autoStart', 'http', 'websocket', 'socketio', 'mcp', 'sse', 'socket', 'dns', 'proxy', 'docs']);
    expect(keys(file.tls)).toEqual(['enabled', 'certPath', 'keyPath']);
    expect(keys(file.http)).toEqual(['routes', 'fallback', 'proxyUrl', 'cors']);
    expect(keys(file.http.routes[0])).toEqual(['name', 'method', 'path', 'status', 'headers', 'body', 'delayMs', 'matchQuery', 'matchHeaders', 'matchBody', 'fault', 'faultPercent', 'enabled']);
    expect(keys(file.websocket)).toEqual(['mode', 'greeting', 'rules', 'lineEnding']);
    expect(keys(file.socket)).toEqual(['mode', 'greeting', 'rules', 'encoding', 'framing', 'lengthBytes', 'lineEnding']);
    for (const rule of [file.websocket.rules[0], file.socket.rules[0]]) expect(keys(rule)).toEqual(['match', 'pattern', 'reply', 'delayMs', 'enabled']);
    expect(keys(file.socketio)).toEqual(['mode', 'greetingEvent', 'greetingArgs', 'rules', 'path', 'cors']);
    expect(keys(file.socketio.rules[0])).toEqual(['event', 'match', 'pattern', 'ack', 'replyEvent', 'replyArgs', 'broadcast', 'delayMs', 'enabled']);
    expect(keys(file.mcp)).toEqual(['serverName', 'version', 'instructions', 'tools', 'resources', 'prompts', 'path', 'cors']);
    expect(keys(file.mcp.tools[0])).toEqual(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'result', 'isError', 'delayMs', 'enabled']);
    expect(keys(file.mcp.resources[0])).toEqual(['uri', 'name', 'title', 'description', 'mimeType', 'text', 'enabled']);
    expect(keys(file.mcp.prompts[0])).toEqual(['name', 'title', 'description', 'arguments', 'messages', 'enabled']);
    expect(keys(file.mcp.prompts[0].arguments[0])).toEqual(['name', 'description', 'required']);
    expect(keys(file.mcp.prompts[0].messages[0])).toEqual(['role', 'text']);
    expect(keys(file.sse)).toEqual(['events', 'intervalMs', 'repeat']);
    expect(keys(file.sse.events[0])).toEqual(['event', 'data', 'id']);
    expect(keys(file.dns)).toEqual(['records', 'upstream']);
    expect(keys(file.dns.records[0])).toEqual(['name', 'type', 'value', 'ttl', 'enabled']);
    expect(keys(file.proxy)).toEqual(['target', 'upstreamTls']);
  });
});

describe('spec 2.12: a load test file', () => {
  it('fields, targets, captures and thresholds in the table order', async () => {
    const file = await written('loadtest', {
      name: 'L', seq: 1,
      targets: [{ request: 'a.yaml', weight: 2, enabled: false, captures: [{ variable: 'v', from: 'header', path: 'x' }] }],
      model: 'arrivalRate', stages: [{ durationSecs: 1, target: 2 }], thinkTimeMs: 1, maxInFlight: 5, keepAlive: false, timeoutMs: 5, httpVersion: 'http2',
      thresholds: [{ metric: 'p95', op: '<', value: 1, target: 'a.yaml', enabled: false }],
      dataFile: 'd.csv', docs: 'd',
    });
    expect(keys(file)).toEqual(['name', 'seq', 'targets', 'model', 'stages', 'thinkTimeMs', 'maxInFlight', 'keepAlive', 'timeoutMs', 'httpVersion', 'thresholds', 'dataFile', 'docs']);
    expect(keys(file.targets[0])).toEqual(['request', 'weight', 'enabled', 'captures']);
    expect(keys(file.targets[0].captures[0])).toEqual(['variable', 'from', 'path']);
    expect(keys(file.stages[0])).toEqual(['durationSecs', 'target']);
    expect(keys(file.thresholds[0])).toEqual(['metric', 'op', 'value', 'target', 'enabled']);
  });
});
