/**
 * Load tests with a signing auth type: every send is signed afresh (its own nonce, time and
 * signature) over the request as sent, per-request values included; a server on 127.0.0.1 checks
 * each signature. A key file is read once, when the test is planned.
 */
import { createHmac, generateKeyPairSync, verify } from 'node:crypto';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import OAuth from 'oauth-1.0a';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runLoadTest, type LoadResult } from '../../src/load/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { testCertificate } from '../support/servers/peers.js';
import { awsV4Check, hawkCheck, oauth1Check, type Received } from '../support/auth-checks.js';
import { startTargetServer, type Seen, type TargetServer } from './target-server.js';

let server: TargetServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 10 requests: 20 a second for half a second. */
const TEN = { model: 'arrivalRate', stages: [{ durationSecs: 0, target: 20 }, { durationSecs: 0.5, target: 20 }] };

async function run(request: Record<string, unknown>, extra: Record<string, unknown> = {}, loadtest: Record<string, unknown> = {}) {
  const { ws, data } = await openedWorkspace({
    'loadtests/t.yaml': { name: 'T', targets: [{ request: 'Signed.yaml' }], ...TEN, ...loadtest },
    'requests/Signed.yaml': { name: 'Signed', method: 'GET', ...request },
    ...extra,
  });
  return runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
}

function oauthParams(header: string): Record<string, string> {
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, decodeURIComponent(m[2]!)]));
}

describe('load tests sign each request', () => {
  it('OAuth 1.0: a new nonce and a valid signature for each request, over the URL as sent ({{$randomInt}} filled)', async () => {
    server = await startTargetServer();
    const result = await run({
      url: `${server.url}/signed/{{$randomInt}}?q=1`,
      auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts', signatureMethod: 'HMAC-SHA1' },
    });
    expect(result.overall.count).toBe(10);
    expect(Object.values(result.overall.errors).reduce((a, b) => a + b, 0)).toBe(0);
    const seen = server.seen;
    expect(seen).toHaveLength(10);
    const params = seen.map((s) => oauthParams(String(s.headers.authorization)));
    expect(new Set(params.map((p) => p.oauth_nonce)).size).toBe(10);
    expect(new Set(seen.map((s) => s.path)).size).toBeGreaterThan(3);
    for (const [i, s] of seen.entries()) {
      const p = params[i]!;
      const check = new OAuth({ consumer: { key: 'ck', secret: 'cs' }, signature_method: 'HMAC-SHA1', hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64') });
      check.getNonce = () => p.oauth_nonce!;
      check.getTimeStamp = () => Number(p.oauth_timestamp);
      const expected = check.authorize({ url: `${server.url}${s.path}`, method: 'GET', data: { q: '1' } }, { key: 'tk', secret: 'ts' });
      expect(p.oauth_signature, s.url).toBe(expected.oauth_signature);
    }
  });

  it('OAuth 1.0 with its parameters in a form body: each request carries one set, its own nonce, a valid signature', async () => {
    server = await startTargetServer();
    const result = await run({
      method: 'POST',
      url: `${server.url}/form`,
      body: { type: 'formUrlencoded', form: [{ key: 'n', value: '{{$randomInt}}' }] },
      auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', signatureMethod: 'HMAC-SHA1', addParamsToHeader: false },
    });
    expect(result.overall.count).toBe(10);
    expect(Object.values(result.overall.errors).reduce((a, b) => a + b, 0)).toBe(0);
    const forms = server.seen.map((s) => new URLSearchParams(s.body));
    expect(forms.every((f) => f.getAll('oauth_nonce').length === 1 && f.getAll('n').length === 1)).toBe(true);
    expect(new Set(forms.map((f) => f.get('oauth_nonce'))).size).toBe(10);
    for (const form of forms) {
      const check = new OAuth({ consumer: { key: 'ck', secret: 'cs' }, signature_method: 'HMAC-SHA1', hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64') });
      check.getNonce = () => form.get('oauth_nonce')!;
      check.getTimeStamp = () => Number(form.get('oauth_timestamp'));
      const expected = check.authorize({ url: `${server.url}/form`, method: 'POST', data: { n: form.get('n')! } }, { key: undefined as unknown as string, secret: '' });
      expect(form.get('oauth_signature')).toBe(expected.oauth_signature);
    }
  });

  it('JWT RS256 from a key file: each request a token of its own, its per-request claim filled, verified with the public key', async () => {
    server = await startTargetServer();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const result = await run(
      {
        url: `${server.url}/jwt`,
        auth: { type: 'jwt', algorithm: 'RS256', privateKeyFile: 'keys/signing.pem', payload: '{"sub":"{{$guid}}","who":"{{name}}"}' },
      },
      { 'keys/signing.pem': privateKey.export({ type: 'pkcs8', format: 'pem' }) },
    );
    expect(result.overall.count).toBe(10);
    expect(Object.values(result.overall.errors).reduce((a, b) => a + b, 0)).toBe(0);
    const tokens = server.seen.map((s) => String(s.headers.authorization).replace(/^Bearer /, ''));
    expect(new Set(tokens).size).toBe(10);
    const subjects = new Set<string>();
    for (const token of tokens) {
      const [head, payload, signature] = token.split('.') as [string, string, string];
      expect(verify('sha256', Buffer.from(`${head}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; who: string };
      expect(claims.sub).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.who).toBe('{{name}}'); // an unknown variable stays as written, as in a send
      subjects.add(claims.sub);
    }
    expect(subjects.size).toBe(10);
  });

  describe('a redirect within the origin is signed again for its own method and URL, as ferry run signs it (sign-hop.ts)', () => {
    /** What the independent checkers read, from what the server saw. */
    const received = (s: Seen): Received => ({ method: s.method, target: s.url, host: String(s.headers.host), headers: s.headers, body: Buffer.from(s.body) });
    /** `/redirect` answers `status` pointing to /to/there?y=2 on the same server; that one answers 200. */
    const redirecting = (status: number) => `${server!.url}/redirect?status=${status}&to=${encodeURIComponent('/to/there?y=2')}`;
    /**
     * Ten requests due (a loaded machine may drop a late start: counted, never sent), each followed
     * once: both hops of each, with no error.
     */
    const sent = (result: LoadResult) => {
      expect(result.overall.count + result.overall.dropped).toBe(10);
      expect(result.overall.count).toBeGreaterThanOrEqual(5);
      expect({ statuses: result.overall.statuses, reasons: result.overall.errorReasons }).toEqual({ statuses: { 200: result.overall.count }, reasons: {} });
      return result.overall.count;
    };
    const hops = async (request: Record<string, unknown>, extra: Record<string, unknown> = {}, loadtest: Record<string, unknown> = {}) => {
      const n = sent(await run(request, extra, loadtest));
      const seen = server!.seen;
      expect(seen.map((s) => s.path).sort()).toEqual([...Array(n).fill('/redirect'), ...Array(n).fill('/to/there')]);
      return { first: seen.filter((s) => s.path === '/redirect'), next: seen.filter((s) => s.path === '/to/there') };
    };

    it('AWS Signature V4: each hop carries a signature over its own path and query', async () => {
      server = await startTargetServer();
      const { first, next } = await hops({ url: redirecting(302), auth: { type: 'awsv4', accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1', service: 'execute-api' } });
      for (const s of [...first, ...next]) expect(awsV4Check(received(s), 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY'), `${s.method} ${s.url}`).toEqual({ ok: true, why: '' });
      expect(next.every((s) => s.url === '/to/there?y=2')).toBe(true);
    });

    it('Hawk: a POST kept by a 307 is signed again with its own nonce and the payload hash of the body sent again', async () => {
      server = await startTargetServer();
      const port = Number(new URL(server.url).port);
      const { first, next } = await hops({
        method: 'POST',
        url: redirecting(307),
        body: { type: 'json', text: '{"n":{{$randomInt}}}' },
        // The id from the data row: the hop is signed with its send's row, not the field as written.
        auth: { type: 'hawk', authId: '{{who}}', authKey: 'hawk-key', algorithm: 'sha256', includePayloadHash: true },
      }, { 'rows.csv': 'who\nalice\nbob\n' }, { dataFile: 'rows.csv' });
      const checks = [...first, ...next].map((s) => hawkCheck(received(s), port, { key: 'hawk-key', algorithm: 'sha256' }));
      expect(checks.every((c) => c.ok && c.hashOk)).toBe(true);
      expect(next.every((s) => s.method === 'POST' && /^\{"n":\d+\}$/.test(s.body))).toBe(true);
      expect(new Set(checks.map((c) => c.attributes.nonce)).size).toBe(checks.length);
      expect(new Set(checks.map((c) => c.attributes.id))).toEqual(new Set(['alice', 'bob']));
    });

    it('a redirect to another origin carries none of the headers the signature added, as a run drops them', async () => {
      server = await startTargetServer();
      const other = await startTargetServer();
      try {
        const result = await run({ url: `${server.url}/redirect?to=${encodeURIComponent(`${other.url}/elsewhere`)}`, auth: { type: 'awsv4', accessKey: 'AKIDEXAMPLE', secretKey: 's3cret', region: 'eu-west-1', service: 'execute-api', sessionToken: 'tok' } });
        const n = sent(result);
        expect(server.seen.every((s) => s.headers['x-amz-date'] !== undefined && s.headers['x-amz-security-token'] === 'tok')).toBe(true);
        expect(other.seen.map((s) => Object.keys(s.headers).filter((h) => /^(authorization|x-amz-)/.test(h)))).toEqual(Array(n).fill([]));
      } finally {
        await other.close();
      }
    });

    it('over HTTPS (the undici client): the hop is signed again too', async () => {
      const { key, cert } = await testCertificate();
      const seen: Received[] = [];
      const tls = https.createServer({ key, cert }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.push({ method: req.method!, target: req.url!, host: req.headers.host!, headers: req.headers, body: Buffer.concat(chunks) });
          if (req.url!.startsWith('/from')) res.writeHead(302, { location: '/to/there?y=2' }).end();
          else res.end('ok');
        });
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      try {
        const { ws, data } = await openedWorkspace({
          'loadtests/t.yaml': { name: 'T', targets: [{ request: 'Signed.yaml' }], ...TEN },
          'requests/Signed.yaml': { name: 'Signed', method: 'GET', url: `https://127.0.0.1:${(tls.address() as AddressInfo).port}/from?x=1`, auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts', signatureMethod: 'HMAC-SHA1' } },
        });
        const result = await runLoadTest({ workspace: ws, id: 't', data, settings: { ...DEFAULT_SETTINGS, verifyTls: false }, workers: 1 });
        const n = sent(result);
        expect(seen.map((r) => r.target.split('?')[0]).sort()).toEqual([...Array(n).fill('/from'), ...Array(n).fill('/to/there')]);
        expect(seen.every((r) => oauth1Check(r, { consumerSecret: 'cs', tokenSecret: 'ts', scheme: 'https' }).ok)).toBe(true);
      } finally {
        tls.closeAllConnections();
        await new Promise<void>((resolve) => tls.close(() => resolve()));
      }
    });

    it('over HTTP/2 (TLS, h2 only): each hop of AWS Signature V4 and Hawk is signed again for its own path, method and body', async () => {
      const { key, cert } = await testCertificate();
      const seen: Array<Received & { version: string }> = [];
      // allowHTTP1 off: a request that fell back to HTTP/1.1 could not be answered.
      const h2 = http2.createSecureServer({ key, cert }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.push({ version: req.httpVersion, method: req.method, target: req.url, host: req.authority, headers: req.headers, body: Buffer.concat(chunks) });
          const status = /^\/from\/(\d+)/.exec(req.url)?.[1];
          if (status) res.writeHead(Number(status), { location: '/to/there/?y=2' }).end();
          else res.end('ok');
        });
      });
      await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
      const origin = `https://127.0.0.1:${(h2.address() as AddressInfo).port}`;
      try {
        const aws = { type: 'awsv4', accessKey: 'AKIDEXAMPLE', secretKey: 'h2-secret', region: 'eu-west-1', service: 'execute-api', sessionToken: 'tok' };
        const hawk = { type: 'hawk', authId: 'id-{{$randomInt}}', authKey: 'hawk-key', algorithm: 'sha256', includePayloadHash: true };
        const { ws, data } = await openedWorkspace({
          'loadtests/t.yaml': { name: 'T', httpVersion: 'http2', targets: [{ request: 'Aws.yaml' }, { request: 'Hawk.yaml' }], ...TEN },
          'requests/Aws.yaml': { name: 'Aws', method: 'GET', url: `${origin}/from/302?x={{$randomInt}}`, auth: aws },
          'requests/Hawk.yaml': { name: 'Hawk', method: 'PUT', url: `${origin}/from/307`, body: { type: 'json', text: '{"n":{{$randomInt}}}' }, auth: hawk },
        });
        const result = await runLoadTest({ workspace: ws, id: 't', data, settings: { ...DEFAULT_SETTINGS, verifyTls: false }, workers: 1 });
        const n = sent(result);
        expect(seen.every((r) => r.version === '2.0')).toBe(true);
        expect(seen.filter((r) => r.target.startsWith('/from/'))).toHaveLength(n);
        expect(seen.filter((r) => r.target === '/to/there/?y=2')).toHaveLength(n);
        const port = Number(new URL(origin).port);
        for (const r of seen) {
          const where = `${r.method} ${r.target} ${String(r.headers.authorization).slice(0, 5)}`;
          if (String(r.headers.authorization).startsWith('AWS4')) expect(awsV4Check(r, 'h2-secret'), where).toEqual({ ok: true, why: '' });
          else {
            const check = hawkCheck(r, port, { key: 'hawk-key', algorithm: 'sha256' });
            expect([check.ok, check.hashOk], where).toEqual([true, true]);
            expect(r.method).toBe('PUT');
            expect(r.body.toString()).toMatch(/^\{"n":\d+\}$/);
          }
        }
        // Both kinds were sent and followed: a hop of each reached /to/there/.
        expect(new Set(seen.filter((r) => r.target.startsWith('/to/')).map((r) => r.method))).toEqual(new Set(['GET', 'PUT']));
      } finally {
        await new Promise<void>((resolve) => h2.close(() => resolve()));
      }
    });

    it('OAuth 1.0 in the header: a 302 is signed again for the GET of the new URL, with a new nonce', async () => {
      server = await startTargetServer();
      const secrets = { consumerSecret: 'cs', tokenSecret: 'ts' };
      const { first, next } = await hops({ url: redirecting(302), auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts', signatureMethod: 'HMAC-SHA1' } });
      const checks = [...first, ...next].map((s) => oauth1Check(received(s), secrets));
      expect(checks.every((c) => c.ok)).toBe(true);
      expect(new Set(checks.map((c) => c.params.oauth_nonce)).size).toBe(checks.length);
    });
  });

  it('a key that cannot be read is refused when the test is planned, before anything is sent', async () => {
    server = await startTargetServer();
    await expect(run({ url: `${server.url}/jwt`, auth: { type: 'jwt', algorithm: 'RS256', privateKeyFile: 'keys/missing.pem' } })).rejects.toThrow(/requests\/Signed\.yaml: .*private key file keys\/missing\.pem/);
    expect(server.seen).toHaveLength(0);
  });
});
