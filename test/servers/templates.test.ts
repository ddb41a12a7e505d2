/** The mock-route and event-stream rows of spec 8.2, over real sockets. */
import { describe, expect, it } from 'vitest';
import { eventually, exchanges, mock, rawHead, send, serve, makeWorkspace } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('mock API answer templates (8.2)', () => {
  it('fills every request value in the body', async () => {
    const body = [
      'method={{request.method}}',
      'path={{request.path}}',
      'url={{request.url}}',
      'body={{request.body}}',
      'id={{request.params.id}}',
      'q={{request.query.name}}',
      'h={{ request.headers.X-Trace }}',
      'missing=[{{request.headers.nope}}][{{request.query.nope}}][{{request.params.nope}}][{{request.body.field}}]',
    ].join('\n');
    const { url } = await mock({ routes: [{ path: '/things/:id', method: 'POST', body }] });
    const answer = await send(`${url}/things/a%2Fb?name=J%C3%BCrgen+X&name=second`, {
      method: 'POST',
      headers: { 'x-trace': 't-1', 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"n":1}'), Buffer.from([0xff])]),
    });
    expect(answer.body.split('\n')).toEqual([
      'method=POST',
      'path=/things/a%2Fb',
      'url=/things/a%2Fb?name=J%C3%BCrgen+X&name=second',
      'body={"n":1}\uFFFD',
      'id=a/b',
      'q=Jürgen X',
      'h=t-1',
      'missing=[][][][]',
    ]);
  });

  it('the route method and path are not templated', async () => {
    const { url } = await mock(
      {
        routes: [
          { name: 'method', method: '{{m}}', path: '/m', body: 'method route' },
          { name: 'path', path: '/lit/{{x}}', body: 'path route' },
        ],
      },
      { variables: [{ key: 'x', value: 'nope' }, { key: 'm', value: 'GET' }] },
    );
    expect((await send(`${url}/m`)).status).toBe(404); // {{m}} is not GET
    expect((await send(`${url}/lit/nope`)).status).toBe(404);
    expect((await send(url, { rawPath: '/lit/{{x}}' })).body).toBe('path route'); // matched as written
  });

  it('fills header names and values from request values and variables', async () => {
    const { url } = await mock(
      {
        routes: [
          {
            path: '/h',
            status: 201,
            headers: [
              { key: 'X-{{headerName}}', value: '{{request.query.v}}-{{tenant}}' },
              { key: 'Set-Cookie', value: 'a=1' },
              { key: 'set-cookie', value: 'b=2' },
              { key: 'X-Off', value: 'no', enabled: false },
              { key: 'Content-Type', value: 'application/vnd.test+json' },
            ],
            body: '{"ok":true}',
          },
        ],
      },
      { variables: [{ key: 'headerName', value: 'Tenant' }, { key: 'tenant', value: 'acme' }] },
    );
    const answer = await send(`${url}/h?v=7`);
    expect(answer.status).toBe(201);
    expect(answer.headers['x-tenant']).toBe('7-acme');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['x-off']).toBeUndefined();
    expect(answer.headers['content-type']).toBe('application/vnd.test+json');
    expect(answer.headers['content-length']).toBe('11');
  });

  it('sends header names as the route writes them, on the wire (first spelling when a name repeats)', async () => {
    const { url } = await mock(
      {
        routes: [
          {
            path: '/static',
            headers: [
              { key: 'X-Total-Count', value: '5' },
              { key: 'Set-Cookie', value: 'a=1' },
              { key: 'set-cookie', value: 'b=2' },
              { key: 'x-lower-case', value: 'kept' },
              { key: 'CONTENT-LENGTH', value: '999' },
              { key: 'Transfer-Encoding', value: 'chunked' },
            ],
            body: '{"n":5}',
          },
          {
            path: '/templated',
            headers: [
              { key: 'X-Request-Id', value: '{{request.query.id}}' },
              { key: 'X-{{name}}-Id', value: 'by name' },
              { key: 'x-tenant-id', value: 'again' },
              { key: 'content-type', value: 'text/csv' },
            ],
            body: 'id={{request.query.id}}',
          },
          { path: '/empty', status: 204, headers: [{ key: 'ETag', value: '"{{request.query.v}}"' }], body: 'not sent' },
        ],
      },
      { variables: [{ key: 'name', value: 'Tenant' }] },
    );
    expect(await rawHead(url, '/static')).toEqual([
      'HTTP/1.1 200 OK',
      'X-Total-Count: 5',
      'Set-Cookie: a=1',
      'Set-Cookie: b=2',
      'x-lower-case: kept',
      'Content-Type: application/json; charset=utf-8',
      'Content-Length: 7',
      'Connection: close',
    ]);
    expect(await rawHead(url, '/templated?id=r7')).toEqual([
      'HTTP/1.1 200 OK',
      'X-Request-Id: r7',
      'X-Tenant-Id: by name',
      'X-Tenant-Id: again',
      'content-type: text/csv',
      'Content-Length: 5',
      'Connection: close',
    ]);
    expect(await rawHead(url, '/empty?v=3')).toEqual(['HTTP/1.1 204 No Content', 'ETag: "3"', 'Connection: close']);
    // Names still compare without case for a client reading them the usual way.
    const answer = await send(`${url}/static`);
    expect(answer.headers['x-total-count']).toBe('5');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.body).toBe('{"n":5}');
  });

  it('any text a template puts in a header can be sent: line breaks cut, control characters dropped, UTF-8 as bytes', async () => {
    const { url } = await mock({
      routes: [
        {
          path: '/echo',
          headers: [
            { key: 'X-Echo', value: '{{request.query.v}}' },
            { key: 'X-Static', value: 'café ✓' },
            { key: 'X-{{request.query.name}}', value: 'named by the client' },
          ],
          body: 'ok',
        },
      ],
    });
    const utf8 = (value: string | string[] | undefined) => Buffer.from(String(value), 'latin1').toString('utf8');
    const plain = await send(`${url}/echo?v=plain&name=Ok`);
    expect(plain.headers['x-echo']).toBe('plain');
    expect(plain.headers['x-ok']).toBe('named by the client');
    expect(utf8(plain.headers['x-static'])).toBe('café ✓');
    const unicode = await send(`${url}/echo?v=${encodeURIComponent('日本 ✓')}`);
    expect(unicode.status).toBe(200);
    expect(utf8(unicode.headers['x-echo'])).toBe('日本 ✓');
    const control = await send(`${url}/echo?v=a%01b%00c%7Fd%09e`);
    expect(control.headers['x-echo']).toBe('abcd\te');
    const injected = await send(`${url}/echo?v=${encodeURIComponent('one\r\nX-Injected: yes')}&name=${encodeURIComponent('a b:')}`);
    expect(injected.status).toBe(200);
    expect(injected.headers['x-echo']).toBe('one');
    expect(injected.headers['x-injected']).toBeUndefined();
    expect(Object.keys(injected.headers).filter((h) => h.startsWith('x-a'))).toEqual([]); // not a header name: left out
    expect(injected.body).toBe('ok');
  });

  it('204 and 304 answers send no body, no length and no guessed type; their headers are still filled', async () => {
    const { url, handle } = await mock({
      routes: [
        { name: 'gone', path: '/none', status: 204, body: '{"ignored": true}', headers: [{ key: 'X-Id', value: '{{request.query.id}}' }] },
        { name: 'same', path: '/same', status: 304, body: 'ignored', headers: [{ key: 'ETag', value: '"v1"' }] },
      ],
    });
    const none = await send(`${url}/none?id=7`);
    expect(none).toMatchObject({ status: 204, body: '' });
    expect(none.headers['x-id']).toBe('7');
    expect(none.headers['content-length']).toBeUndefined();
    expect(none.headers['content-type']).toBeUndefined();
    const same = await send(`${url}/same`);
    expect(same).toMatchObject({ status: 304, body: '' });
    expect(same.headers.etag).toBe('"v1"');
    expect(same.headers['content-length']).toBeUndefined();
    // The log says what was sent: no bytes.
    await eventually(async () => exchanges(handle).filter((r) => r.bytesOut === 0 && (r.detail.route === 'gone' || r.detail.route === 'same')).length === 2);
  });

  it('guesses a content type when the route sets none', async () => {
    const { url } = await mock({ routes: [{ path: '/j', body: '  {"a":1}' }, { path: '/t', body: 'hello' }, { path: '/e' }] });
    expect((await send(`${url}/j`)).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await send(`${url}/t`)).headers['content-type']).toBe('text/plain; charset=utf-8');
    const empty = await send(`${url}/e`);
    expect(empty.headers['content-type']).toBeUndefined();
    expect(empty.body).toBe('');
  });

  it('variables: --var, then the environment (script-set values first), then the workspace (saved values only); secrets and unknown names stay as written', async () => {
    const root = await makeWorkspace({
      variables: [
        { key: 'a', value: 'ws-a' },
        { key: 'b', value: 'ws-b' },
        { key: 'c', value: 'ws-c' },
        { key: 'token', value: '', secret: true },
        { key: 'off', value: 'x', enabled: false },
        { key: 'nested', value: '<{{b}}|{{$randomInt}}>' },
      ],
      environments: { dev: [{ key: 'a', value: 'env-a' }, { key: 'b', value: 'env-b' }, { key: 'envSecret', value: '', secret: true }] },
      servers: {
        api: { name: 'API', http: { routes: [{ path: '/v', body: '{{a}} {{b}} {{c}} {{token}} {{envSecret}} {{off}} {{undefined}} {{nested}} {{$unknownDynamic}} {{g}}' }] } },
      },
    });
    // What scripts set: `b` in the environment is used, `c` in the collection is not (spec 8.2: the
    // workspace variables' saved values; "Globals are not used": `g` a script set globally stays as written).
    const scripted: Record<string, Record<string, string>> = { 'environment:dev': { b: 'script-b' }, collection: { c: 'script-c' }, globals: { g: 'global-g', c: 'global-c' } };
    const handle = await serve(root, { environment: 'dev', overrides: { a: 'cli-a' }, scriptValues: async (scope: string) => scripted[scope] ?? {} });
    const body = (await send(`${handle.servers[0]!.url}/v`)).body;
    expect(body).toMatch(/^cli-a script-b ws-c \{\{token\}\} \{\{envSecret\}\} \{\{off\}\} \{\{undefined\}\} <script-b\|\d+> \{\{\$unknownDynamic\}\} \{\{g\}\}$/);
  });

  it('dynamic values give a new value at every occurrence; request values are never expanded again', async () => {
    const { url } = await mock(
      { routes: [{ path: '/d', body: '{{$uuid}} {{$uuid}} {{$timestamp}} {{$randomBoolean}} {{request.query.t}}' }] },
      { variables: [{ key: 'secretish', value: 'LEAK' }] },
    );
    const [u1, u2, ts, bool, echoed] = (await send(`${url}/d?t=${encodeURIComponent('{{secretish}}')}`)).body.split(' ');
    expect(u1).toMatch(UUID);
    expect(u2).toMatch(UUID);
    expect(u1).not.toBe(u2);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
    expect(['true', 'false']).toContain(bool);
    expect(echoed).toBe('{{secretish}}');
  });

  it('a user variable named like a dynamic value wins', async () => {
    const { url } = await mock({ routes: [{ path: '/d', body: '{{$uuid}}' }] }, { variables: [{ key: '$uuid', value: 'fixed' }] });
    expect((await send(`${url}/d`)).body).toBe('fixed');
  });

  it('a rendered answer stops growing at 32 MB: placeholders past it stay as written', async () => {
    const root = await makeWorkspace({ servers: { api: { name: 'Big', http: { routes: [{ path: '/big', body: '{{big}}|{{big}}|{{big}}|{{request.method}}' }] } } } });
    const big = 'x'.repeat(12 * 1024 * 1024);
    const handle = await serve(root, { overrides: { big } });
    const answer = await send(`${handle.servers[0]!.url}/big`, { timeoutMs: 20_000 });
    // The third {{big}} would pass 32 MB: it and every placeholder after it stay as written.
    expect(answer.body.length).toBe(2 * big.length + '||{{big}}|{{request.method}}'.length);
    expect(answer.body.endsWith(`${'x'.repeat(10)}|{{big}}|{{request.method}}`)).toBe(true);
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
  });
});
