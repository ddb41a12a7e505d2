/** Route matching over real sockets: method, path patterns, query, headers, body, order, enabled. */
import { describe, expect, it } from 'vitest';
import { exchanges, mock, send } from './helpers.js';

const route = (name: string, fields: Record<string, unknown>) => ({ name, body: name, ...fields });

describe('mock API route matching', () => {
  it('tries routes in order; the first enabled match answers', async () => {
    const { url, handle } = await mock({
      routes: [
        route('disabled', { path: '/items', enabled: false }),
        route('first', { path: '/items' }),
        route('second', { path: '/items' }),
      ],
    });
    const answer = await send(`${url}/items`);
    expect(answer.body).toBe('first');
    await new Promise((r) => setTimeout(r, 10));
    const last = exchanges(handle).at(-1)!;
    expect(last).toMatchObject({ kind: 'http', direction: 'exchange', detail: { method: 'GET', path: '/items', route: 'first', status: 200 }, bytesOut: 5 });
  });

  it('matches the method, or any method with *', async () => {
    const { url } = await mock({
      routes: [route('post', { method: 'POST', path: '/m' }), route('lower', { method: 'put', path: '/m' }), route('any', { method: '*', path: '/m' })],
    });
    expect((await send(`${url}/m`, { method: 'POST' })).body).toBe('post');
    expect((await send(`${url}/m`, { method: 'PUT' })).body).toBe('lower');
    expect((await send(`${url}/m`, { method: 'DELETE' })).body).toBe('any');
    expect((await send(`${url}/m`)).body).toBe('any');
  });

  it('a GET route answers HEAD without a body', async () => {
    const { url } = await mock({ routes: [route('get', { method: 'GET', path: '/h' })] });
    const answer = await send(`${url}/h`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers['content-length']).toBe('3');
  });

  it(':name and {name} match exactly one segment', async () => {
    const { url } = await mock({
      routes: [
        route('one', { path: '/users/:id', body: 'user {{request.params.id}}' }),
        route('brace', { path: '/orders/{orderId}/lines/:line', body: '{{request.params.orderId}}-{{request.params.line}}' }),
      ],
    });
    expect((await send(`${url}/users/42`)).body).toBe('user 42');
    expect((await send(`${url}/users/42/`)).body).toBe('user 42'); // trailing slash ignored
    expect((await send(`${url}/users/42/x`)).status).toBe(404);
    expect((await send(`${url}/users/`)).status).toBe(404);
    expect((await send(`${url}/orders/7/lines/2`)).body).toBe('7-2');
  });

  it('segments match whole: a literal is not a prefix, a parameter is never empty, a repeated name takes its first segment', async () => {
    const { url } = await mock({
      routes: [
        route('posts', { path: '/users/:id/posts', body: 'posts of {{request.params.id}}' }),
        route('twice', { path: '/pair/:x/:x', body: '{{request.params.x}}' }),
        route('double', { path: '/a//:b', body: '{{request.params.b}}' }),
      ],
    });
    expect((await send(`${url}/users/1/posts`)).body).toBe('posts of 1');
    expect((await send(`${url}/users/1/postsX`)).status).toBe(404);
    expect((await send(`${url}/user/1/posts`)).status).toBe(404);
    expect((await send(`${url}/users//posts`)).status).toBe(404);
    expect((await send(`${url}/users/1/posts//`)).status).toBe(404); // one trailing slash only
    expect((await send(`${url}/pair/1/2`)).body).toBe('1');
    expect((await send(`${url}/a//b%20c`)).body).toBe('b c');
    expect((await send(`${url}/a/b`)).status).toBe(404);
  });

  it('a parameter with literal text around it inside one segment: {Sid}.json, {id}.{format}, :id.json, {name}:cancel', async () => {
    const { url } = await mock({
      routes: [
        route('index', { path: '/files/index.json' }),
        route('twilio', { path: '/Accounts/{AccountSid}/Calls/{Sid}.json', body: '{{request.params.AccountSid}} {{request.params.Sid}}' }),
        route('format', { path: '/report/{id}.{format}', body: '{{request.params.id}} as {{request.params.format}}' }),
        route('colon', { path: '/files/:id.json', body: 'file {{request.params.id}}' }),
        route('custom', { path: '/v1/jobs/{name}:cancel', body: 'cancel {{request.params.name}}' }),
        route('prefix', { path: '/img/thumb-{n}.png/*', body: '{{request.params.n}} [{{request.params.*}}]' }),
      ],
    });
    expect((await send(`${url}/Accounts/AC1/Calls/CA2.json`)).body).toBe('AC1 CA2');
    expect((await send(`${url}/Accounts/AC1/Calls/CA2.json/`)).body).toBe('AC1 CA2');
    expect((await send(`${url}/Accounts/AC1/Calls/CA2.xml`)).status).toBe(404);
    expect((await send(`${url}/Accounts/AC1/Calls/.json`)).status).toBe(404); // a parameter is never empty
    expect((await send(`${url}/Accounts/AC1/Calls/a%2Eb.json`)).body).toBe('AC1 a.b'); // decoded, as whole segments are
    expect((await send(`${url}/report/7.csv`)).body).toBe('7 as csv');
    expect((await send(`${url}/report/7.tar.gz`)).body).toBe('7 as tar.gz'); // the first parameter takes the least
    expect((await send(`${url}/report/7`)).status).toBe(404);
    expect((await send(`${url}/files/index.json`)).body).toBe('index'); // an earlier literal route still wins
    expect((await send(`${url}/files/a.b.json`)).body).toBe('file a.b');
    expect((await send(`${url}/files/a.json/x`)).status).toBe(404);
    expect((await send(`${url}/v1/jobs/j-1:cancel`)).body).toBe('cancel j-1');
    expect((await send(`${url}/img/thumb-3.png/a/b`)).body).toBe('3 [a/b]');
    expect((await send(`${url}/img/thumb-.png`)).status).toBe(404);
  });

  it('a trailing * matches the rest of the path', async () => {
    const { url } = await mock({
      routes: [
        route('files', { path: '/files/*', body: 'rest=[{{request.params.*}}]' }),
        route('glued', { path: '/api*', body: 'glued=[{{request.params.*}}]' }),
      ],
    });
    expect((await send(`${url}/files/a/b/c.txt`)).body).toBe('rest=[a/b/c.txt]');
    expect((await send(`${url}/files`)).body).toBe('rest=[]');
    expect((await send(`${url}/files/%C3%A9t%C3%A9`)).body).toBe('rest=[été]');
    expect((await send(`${url}/apis/v2`)).body).toBe('glued=[s/v2]');
    expect((await send(`${url}/other`)).status).toBe(404);
  });

  it('paths are compared as sent: case-sensitive, not decoded, query ignored', async () => {
    const { url } = await mock({ routes: [route('exact', { path: '/Hello World' }), route('plain', { path: '/a b' })] });
    expect((await send(`${url}/hello%20world`)).status).toBe(404);
    expect((await send(`${url}/Hello%20World`)).status).toBe(404); // the route path would have to be written encoded
    const encoded = await mock({ routes: [route('enc', { path: '/Hello%20World' })] });
    expect((await send(`${encoded.url}/Hello%20World?x=1`)).body).toBe('enc');
  });

  it('matchQuery: every listed parameter must be present; an empty value means any value', async () => {
    const { url } = await mock({
      routes: [
        route('exact', { path: '/q', matchQuery: [{ key: 'type', value: 'a b' }, { key: 'page', value: '' }] }),
        route('disabled-row', { path: '/q', matchQuery: [{ key: 'never', value: '', enabled: false }, { key: 'type', value: 'c' }] }),
        route('fallback', { path: '/q' }),
      ],
    });
    expect((await send(`${url}/q?type=a+b&page=3`)).body).toBe('exact');
    expect((await send(`${url}/q?page=&type=a%20b`)).body).toBe('exact');
    expect((await send(`${url}/q?type=x&type=a+b&page`)).body).toBe('exact'); // any occurrence counts
    expect((await send(`${url}/q?type=a+b`)).body).toBe('fallback'); // page missing
    expect((await send(`${url}/q?type=c`)).body).toBe('disabled-row');
    expect((await send(`${url}/q?Type=a+b&page=1`)).body).toBe('fallback'); // names are case-sensitive
  });

  it('matchHeaders: names in any case; an empty value means any value', async () => {
    const { url } = await mock({
      routes: [
        route('v2', { path: '/h', matchHeaders: [{ key: 'X-Version', value: '2' }] }),
        route('auth', { path: '/h', matchHeaders: [{ key: 'authorization', value: '' }] }),
        route('none', { path: '/h' }),
      ],
    });
    expect((await send(`${url}/h`, { headers: { 'x-version': '2' } })).body).toBe('v2');
    expect((await send(`${url}/h`, { headers: { 'X-VERSION': '3' } })).body).toBe('none');
    expect((await send(`${url}/h`, { headers: { Authorization: 'Bearer x' } })).body).toBe('auth');
    expect((await send(`${url}/h`)).body).toBe('none');
  });

  it('matchBody: the body must contain the text', async () => {
    const { url } = await mock({
      routes: [route('vip', { method: 'POST', path: '/orders', matchBody: '"tier":"vip"' }), route('other', { method: 'POST', path: '/orders' })],
    });
    expect((await send(`${url}/orders`, { method: 'POST', body: '{"id":1,"tier":"vip"}' })).body).toBe('vip');
    expect((await send(`${url}/orders`, { method: 'POST', body: '{"id":1,"tier":"std"}' })).body).toBe('other');
    expect((await send(`${url}/orders`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, body: 'x"tier":"vip"x' })).body).toBe('vip');
    expect((await send(`${url}/orders`, { method: 'POST' })).body).toBe('other');
  });

  it('match values take variables and dynamic values, never request values', async () => {
    const { url } = await mock(
      {
        routes: [
          route('by-var', { path: '/v', matchHeaders: [{ key: 'x-key', value: '{{apiKey}}' }] }),
          route('request-not-filled', { path: '/v', matchQuery: [{ key: 'echo', value: '{{request.method}}' }] }),
          route('none', { path: '/v' }),
        ],
      },
      { variables: [{ key: 'apiKey', value: 'k-{{suffix}}' }, { key: 'suffix', value: '9' }] },
    );
    expect((await send(`${url}/v`, { headers: { 'x-key': 'k-9' } })).body).toBe('by-var');
    expect((await send(`${url}/v?echo=GET`)).body).toBe('none');
    expect((await send(`${url}/v?echo=${encodeURIComponent('{{request.method}}')}`)).body).toBe('request-not-filled');
  });

  it('unmatched requests get 404 naming the method and path', async () => {
    const { url, handle } = await mock({ routes: [route('only', { path: '/only' })] });
    const answer = await send(`${url}/missing/thing?x=1`, { method: 'DELETE' });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body).toContain('DELETE /missing/thing');
    expect(answer.body).toContain('servers/api.yaml');
    await new Promise((r) => setTimeout(r, 10));
    expect(exchanges(handle).at(-1)).toMatchObject({ detail: { status: 404, route: '', note: 'notFound' }, note: 'no route', level: 'warning' });
  });

  it('a hostile path pattern is literal text, not a regular expression', async () => {
    const { url } = await mock({ routes: [route('re', { path: '/a.(b)+[c]/:x' })] });
    expect((await send(`${url}/a.(b)+[c]/1`)).body).toBe('re');
    expect((await send(`${url}/aX(b)+[c]/1`)).status).toBe(404);
  });
});
