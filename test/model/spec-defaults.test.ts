/**
 * The defaults of spec 2.2 to 2.7, 2.9 and 2.10 (the workspace file, requests, rows, bodies, auth,
 * folders, variables), 2.8 (kind options), 2.11 (servers and their sections) and 2.12 (load
 * tests), written out again here from the spec's tables (not read from the code), checked on
 * files as Ferry reads them from disk: a file that names only what is required gets every other
 * field at the spec's default. A kind-option section left out gets the same defaults when the
 * request is prepared (request/kind-options.ts parses `{}` with the same schema).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceKind } from '../../src/model/index.js';
import { readResource } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

async function read(kind: ResourceKind, yaml: string): Promise<Record<string, unknown>> {
  const dir = await tempDir();
  const file = path.join(dir, 'item.yaml');
  await fs.writeFile(file, yaml);
  const outcome = await readResource(kind, file, 'item.yaml');
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.warning));
  return outcome.value as Record<string, unknown>;
}

describe('spec 2.2 to 2.7, 2.9 and 2.10: the workspace file, requests, rows, bodies, auth, folders and variables', () => {
  const row = { key: '', value: '', enabled: true, description: '' };

  it('the workspace file: no variables, auth none, no headers', async () => {
    expect(await read('workspace', 'version: 1\nname: W\n')).toMatchObject({ version: 1, name: 'W', variables: [], auth: { type: 'none' }, headers: [] });
  });

  it('a request: kind http, seq 0, method GET, url empty, no rows, body none (contentType text/plain), auth inherit', async () => {
    expect(await read('request', 'name: R\n')).toMatchObject({
      name: 'R', kind: 'http', seq: 0, method: 'GET', url: '', disabledParams: [], pathParams: [], paramDescriptions: [], headers: [],
      body: { type: 'none', contentType: 'text/plain', form: [], multipart: [] }, auth: { type: 'inherit' },
    });
  });

  it('a key/value row: key and value empty, enabled, no description, in every place rows are used', async () => {
    const request = await read('request', ['name: R', 'disabledParams: [{}]', 'pathParams: [{}]', 'paramDescriptions: [{}]', 'headers: [{}]', 'body:', '  form: [{}]', ''].join('\n'));
    for (const field of ['disabledParams', 'pathParams', 'paramDescriptions', 'headers']) expect(request[field], field).toEqual([row]);
    expect((request.body as { form: unknown }).form).toEqual([row]);
  });

  it('a multipart part: key and value empty, not a file, enabled; GraphQL: query, variables and operation name empty', async () => {
    const body = (await read('request', 'name: R\nbody:\n  type: multipart\n  multipart: [{}]\n  graphql: {}\n')).body as Record<string, unknown>;
    expect(body.multipart).toEqual([{ key: '', value: '', file: false, enabled: true }]);
    expect(body.graphql).toEqual({ query: '', variables: '', operationName: '' });
  });

  it('auth: basic with empty fields, bearer prefix Bearer, apiKey in a header; OAuth 2.0 client credentials, loopback redirect, Basic header, PKCE, prefix Bearer', async () => {
    const auth = async (yaml: string) => (await read('request', `name: R\nauth: ${yaml}\n`)).auth;
    expect(await auth('{ type: basic }')).toEqual({ type: 'basic', username: '', password: '' });
    expect(await auth('{ type: bearer }')).toEqual({ type: 'bearer', token: '', prefix: 'Bearer' });
    expect(await auth('{ type: apiKey }')).toEqual({ type: 'apiKey', key: '', value: '', location: 'header' });
    expect(await auth('{ type: oauth2 }')).toEqual({
      type: 'oauth2', grantType: 'clientCredentials', redirectUri: 'http://127.0.0.1:53682/callback', clientAuth: 'basicHeader', pkce: true, headerPrefix: 'Bearer',
    });
    await expect(read('request', 'name: R\nauth: { type: apiKey, location: cookie }\n')).rejects.toThrow();
    await expect(read('request', 'name: R\nauth: { type: oauth2, grantType: implicit }\n')).rejects.toThrow();
  });

  it('a folder: seq 0, auth inherit, no headers; openapi.validate true', async () => {
    expect(await read('folder', 'openapi: { spec: specs/a.yaml }\n')).toMatchObject({ seq: 0, auth: { type: 'inherit' }, headers: [], openapi: { spec: 'specs/a.yaml', validate: true } });
  });

  it('an environment\'s variable: value empty, enabled, not secret', async () => {
    expect(await read('environment', 'name: E\nvariables:\n  - key: k\n')).toEqual({ name: 'E', variables: [{ key: 'k', value: '', enabled: true, secret: false }] });
  });
});

describe('spec 2.8: kind-specific options of requests', () => {
  const sections = async () =>
    read('request', ['name: R', 'socket: {}', 'dns: {}', 'mqtt: {}', 'grpc: {}', 'socketio: {}', 'mcp: {}', ''].join('\n'));

  it('TCP and UDP (`socket`): framing raw, lengthBytes 2, lineEnding none, broadcast false', async () => {
    expect((await sections()).socket).toMatchObject({ framing: 'raw', lengthBytes: 2, lineEnding: 'none', broadcast: false });
  });

  it('DNS: server empty (system resolver), recursion true', async () => {
    expect((await sections()).dns).toEqual({ server: '', recursion: true });
  });

  it('MQTT: clientId empty, v311, cleanSession true, keepAliveSecs 30 (8.1), no subscriptions, topic empty, qos 0, retain false', async () => {
    expect((await sections()).mqtt).toEqual({
      clientId: '', version: 'v311', cleanSession: true, keepAliveSecs: 30, subscriptions: [], topic: '', qos: 0, retain: false,
    });
    const one = await read('request', 'name: R\nmqtt:\n  subscriptions:\n    - topic: a/b\n');
    expect((one.mqtt as { subscriptions: unknown[] }).subscriptions).toEqual([{ topic: 'a/b', qos: 0, enabled: true }]);
  });

  it('gRPC: no proto files (server reflection), no import paths', async () => {
    expect((await sections()).grpc).toEqual({ protoFiles: [], importPaths: [] });
  });

  it('Socket.IO: path /socket.io/, transport auto, auth and event empty, ack false', async () => {
    expect((await sections()).socketio).toEqual({ path: '/socket.io/', transport: 'auto', auth: '', event: '', ack: false });
  });

  it('MCP: transport auto, call tool, name/arguments/cwd empty, no env', async () => {
    expect((await sections()).mcp).toEqual({ transport: 'auto', call: 'tool', name: '', arguments: '', cwd: '', env: [] });
  });

  it('refuses values outside the lists the spec gives', async () => {
    for (const bad of ['socket: { lengthBytes: 3 }', 'socket: { framing: json }', 'socket: { lineEnding: cr }', 'mqtt: { version: v4 }', 'socketio: { transport: ws }', 'mcp: { call: sample }', 'mcp: { transport: http }']) {
      await expect(read('request', `name: R\n${bad}\n`), bad).rejects.toThrow();
    }
  });
});

describe('spec 8.1: request settings defaults', () => {
  it('repeat.intervalMs 1000 / repeat.timeoutMs 30000; stream.maxEvents 100 / stream.timeoutMs 10000', async () => {
    const request = await read('request', 'name: R\nsettings:\n  repeat: {}\n  stream: {}\n');
    expect(request.settings).toMatchObject({ repeat: { intervalMs: 1000, timeoutMs: 30000 }, stream: { maxEvents: 100, timeoutMs: 10000 } });
  });
});

describe('spec 2.11: servers', () => {
  it('common fields: kind http, seq 0, host 127.0.0.1, port 0, autoStart false', async () => {
    expect(await read('server', 'name: S\n')).toMatchObject({ name: 'S', kind: 'http', seq: 0, host: '127.0.0.1', port: 0, autoStart: false });
    await expect(read('server', 'name: S\nhost: localhost\n')).rejects.toThrow();
  });

  it('tls: off by default; without paths when enabled', async () => {
    expect((await read('server', 'name: S\n')).tls).toBeUndefined();
    expect((await read('server', 'name: S\ntls: {}\n')).tls).toEqual({ enabled: false });
  });

  it('mock API: no routes, fallback notFound, cors false; a route: method *, status 200, no headers, empty body, delay 0, no matches, fault none at 100 %, enabled', async () => {
    const server = await read('server', 'name: S\nhttp:\n  routes:\n    - path: /x\n');
    expect(server.http).toMatchObject({ fallback: 'notFound', cors: false });
    expect((server.http as { routes: unknown[] }).routes).toEqual([{
      name: '', method: '*', path: '/x', status: 200, headers: [], body: '', delayMs: 0,
      matchQuery: [], matchHeaders: [], matchBody: '', fault: 'none', faultPercent: 100, enabled: true,
    }]);
    expect((await read('server', 'name: S\nhttp: {}\n')).http).toMatchObject({ routes: [], fallback: 'notFound', cors: false });
    await expect(read('server', 'name: S\nhttp:\n  routes:\n    - path: x\n')).rejects.toThrow(/must start with \//);
  });

  it('WebSocket, TCP, UDP: mode echo, no greeting, no rules, encoding text, framing raw, lengthBytes 2, lineEnding none; a rule matches `contains` by default', async () => {
    const expected = { mode: 'echo', greeting: '', rules: [], encoding: 'text', framing: 'raw', lengthBytes: 2, lineEnding: 'none' };
    const server = await read('server', 'name: S\nkind: tcp\nsocket: {}\nwebsocket: {}\n');
    expect(server.socket).toEqual(expected);
    expect(server.websocket).toMatchObject(expected);
    const rule = await read('server', 'name: S\nkind: tcp\nsocket:\n  rules:\n    - pattern: hi\n');
    expect((rule.socket as { rules: unknown[] }).rules).toEqual([{ match: 'contains', pattern: 'hi', reply: '', delayMs: 0, enabled: true }]);
  });

  it('Socket.IO: mode echo, no greeting, path /socket.io/, cors false; a rule: event *, match `any`, no ack, no broadcast', async () => {
    const server = await read('server', 'name: S\nkind: socketio\nsocketio:\n  rules:\n    - replyEvent: r\n');
    expect(server.socketio).toMatchObject({ mode: 'echo', greetingEvent: '', greetingArgs: '', path: '/socket.io/', cors: false });
    expect((server.socketio as { rules: unknown[] }).rules).toEqual([{
      event: '*', match: 'any', pattern: '', ack: false, replyEvent: 'r', replyArgs: '', broadcast: false, delayMs: 0, enabled: true,
    }]);
  });

  it('MCP: version 1.0.0, no instructions, no tools/resources/prompts, path /mcp, cors false (serverName: the server name, see test/servers/mcp.test.ts)', async () => {
    const server = await read('server', 'name: S\nkind: mcp\nmcp: {}\n');
    expect(server.mcp).toEqual({ version: '1.0.0', instructions: '', tools: [], resources: [], prompts: [], path: '/mcp', cors: false });
  });

  it('SSE: no events, interval 0, repeat false; an event: name, data and id empty', async () => {
    const server = await read('server', 'name: S\nkind: sse\nsse:\n  events:\n    - data: d\n');
    expect(server.sse).toEqual({ events: [{ event: '', data: 'd', id: '' }], intervalMs: 0, repeat: false });
  });

  it('DNS: no records, upstream empty; a record: ttl 60, enabled; the spec\'s nine types only', async () => {
    const server = await read('server', 'name: S\nkind: dns\ndns:\n  records:\n    - name: a.test\n      type: MX\n      value: 10 mail.test\n');
    expect(server.dns).toEqual({ records: [{ name: 'a.test', type: 'MX', value: '10 mail.test', ttl: 60, enabled: true }], upstream: '' });
    for (const type of ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'PTR', 'SRV', 'CAA']) {
      await read('server', `name: S\nkind: dns\ndns:\n  records:\n    - { name: a.test, type: ${type}, value: x }\n`);
    }
    await expect(read('server', 'name: S\nkind: dns\ndns:\n  records:\n    - { name: a.test, type: SOA, value: x }\n')).rejects.toThrow();
  });

  it('a file without its kind\'s section: the kind reads that section at its defaults (kindSection), a copy of its own', async () => {
    const { kindSection, SERVER_KIND_SECTION } = await import('../../src/model/index.js');
    for (const [kind, name] of Object.entries(SERVER_KIND_SECTION)) {
      const server = (await read('server', `name: S\nkind: ${kind}\n`)) as never;
      const withSection = (await read('server', `name: S\nkind: ${kind}\n${name}: {}\n`)) as Record<string, unknown>;
      const section = kindSection(server, name) as Record<string, unknown>;
      expect(section, kind).toEqual(withSection[name]);
      section.changed = true;
      expect(kindSection(server, name), kind).not.toHaveProperty('changed');
    }
  });

  it('TCP relay: target empty, upstreamTls false', async () => {
    expect((await read('server', 'name: S\nkind: tcpProxy\nproxy: {}\n')).proxy).toEqual({ target: '', upstreamTls: false });
  });
});

describe('spec 2.12: load tests', () => {
  it('model virtualUsers, no targets/stages/thresholds, think time 0, maxInFlight 1000 (8.1), keepAlive true; timeoutMs and httpVersion from the application setting', async () => {
    const test = await read('loadtest', 'name: L\n');
    expect(test).toMatchObject({ name: 'L', seq: 0, targets: [], model: 'virtualUsers', stages: [], thinkTimeMs: 0, maxInFlight: 1000, keepAlive: true, thresholds: [] });
    expect(test.timeoutMs).toBeUndefined();
    expect(test.httpVersion).toBeUndefined();
  });

  it('a target: weight 1, enabled; a capture from json; a threshold enabled', async () => {
    const test = await read('loadtest', [
      'name: L',
      'targets:',
      '  - request: a.yaml',
      '    captures:',
      '      - { variable: id, path: $.id }',
      'thresholds:',
      '  - { metric: p95, op: "<", value: 300 }',
      '',
    ].join('\n'));
    expect(test.targets).toEqual([{ request: 'a.yaml', weight: 1, enabled: true, captures: [{ variable: 'id', from: 'json', path: '$.id' }] }]);
    expect(test.thresholds).toEqual([{ metric: 'p95', op: '<', value: 300, enabled: true }]);
  });

  it('stages need both durationSecs and target', async () => {
    await expect(read('loadtest', 'name: L\nstages:\n  - { durationSecs: 5 }\n')).rejects.toThrow(/target/);
    await expect(read('loadtest', 'name: L\nstages:\n  - { target: 5 }\n')).rejects.toThrow(/durationSecs/);
  });

  it('threshold metrics and operators are the spec\'s lists', async () => {
    for (const metric of ['p50', 'p90', 'p95', 'p99', 'p999', 'avg', 'max', 'errorRate', 'rps']) {
      for (const op of ['<', '<=', '>', '>=']) await read('loadtest', `name: L\nthresholds:\n  - { metric: ${metric}, op: "${op}", value: 1 }\n`);
    }
    await expect(read('loadtest', 'name: L\nthresholds:\n  - { metric: p75, op: "<", value: 1 }\n')).rejects.toThrow();
    await expect(read('loadtest', 'name: L\nthresholds:\n  - { metric: p95, op: "==", value: 1 }\n')).rejects.toThrow();
  });
});
