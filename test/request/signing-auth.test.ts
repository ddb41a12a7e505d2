/**
 * The six signing auth types end to end (spec 5.5, issue 20): each request is prepared by Ferry,
 * sent over 127.0.0.1 by its HTTP client, and checked by a test server that recomputes the
 * signature or runs the handshake itself (test/support/auth-checks.ts; EdgeGrid by the akamai-edgegrid
 * package), never with the library Ferry signs with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseResource, type RequestFile } from '../../src/model/index.js';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { PrepareError, prepareRequest } from '../../src/request/index.js';
import { toCode } from '../../src/codegen/index.js';
import { testCertificate } from '../support/servers/peers.js';
import { hawkCheck, jwtCheck, md4, ntlmType, ntlmType2, ntlmV2Check, oauth1Check, type Received } from '../support/auth-checks.js';

// The package exports only its HTTP client; its signer is required by file (the package's own src/auth.js).
const requireHere = createRequire(import.meta.url);
const EdgeGridAuth = requireHere(path.join(path.dirname(requireHere.resolve('akamai-edgegrid')), 'src', 'auth.js')) as {
  generateAuth(request: Record<string, unknown>, clientToken: string, clientSecret: string, accessToken: string, host: string, maxBody: number | undefined, nonce: string, timestamp: string): { headers: { Authorization: string } };
};

function request(data: Record<string, unknown>): RequestFile {
  const parsed = parseResource('request', { name: 'R', ...data });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

let root: string;
let server: http.Server;
let base: string;
let port: number;
const agents = new HttpAgents();
const received: Received[] = [];
/** The test's answer for each request; the default records and answers 200. */
let answer: (r: Received, res: http.ServerResponse, socket: Socket) => void = (_r, res) => res.end('ok');

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-signing-'));
  await fs.mkdir(path.join(root, 'keys'));
  await fs.writeFile(path.join(root, 'keys', 'rsa.pem'), pem(rsa.privateKey));
  await fs.writeFile(path.join(root, 'keys', 'rsa1.pem'), rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
  await fs.writeFile(path.join(root, 'keys', 'broken.pem'), '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n');
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method!, target: req.url!, host: req.headers.host!, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      answer(r, res, req.socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await agents.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(root, { recursive: true, force: true });
});

async function send(data: Record<string, unknown>) {
  received.length = 0;
  const prepared = await prepareRequest({ request: request(data), folders: [], workspace: { root, file: { auth: { type: 'none' }, headers: [] } } });
  const result = await sendHttp(prepared, { agents });
  return { prepared, result, last: received[received.length - 1]! };
}
const prepare = (data: Record<string, unknown>) => prepareRequest({ request: request(data), folders: [], workspace: { root, file: { auth: { type: 'none' }, headers: [] } } });

describe('OAuth 1.0 (RFC 5849 recomputed by the server)', () => {
  const creds = { consumerKey: 'ck', consumerSecret: 'c&s ✓', token: 'tk', tokenSecret: 'ts!' };
  const secrets = { consumerSecret: 'c&s ✓', tokenSecret: 'ts!' };

  it('HMAC-SHA1 in the header, with realm, callback, verifier and a query of repeated, spaced and + values', async () => {
    const { last } = await send({ url: `${base}/o?b=2&a=1&a=0&q=a+b&r=%20x%2B`, auth: { type: 'oauth1', ...creds, realm: 'Photos', callback: 'http://127.0.0.1:1/cb', verifier: 'v!' } });
    expect(String(last.headers.authorization)).toMatch(/^OAuth realm="Photos",oauth_consumer_key="ck",oauth_token="tk",oauth_signature_method="HMAC-SHA1",oauth_timestamp="\d+",oauth_nonce="\w+",oauth_version="1.0",oauth_callback="http%3A%2F%2F127.0.0.1%3A1%2Fcb",oauth_verifier="v%21",oauth_signature="[^"]+"$/);
    const check = oauth1Check(last, secrets);
    expect(check.ok).toBe(true);
    expect(check.where).toBe('header');
    expect(check.params).toMatchObject({ oauth_consumer_key: 'ck', oauth_token: 'tk', oauth_signature_method: 'HMAC-SHA1', oauth_version: '1.0', oauth_callback: 'http://127.0.0.1:1/cb', oauth_verifier: 'v!' });
    // A server with another secret refuses it: the check is real.
    expect(oauth1Check(last, { ...secrets, tokenSecret: 'other' }).ok).toBe(false);
  });

  it('disableHeaderEncoding writes the header\'s realm and values as they are (as Postman does), signed the same', async () => {
    const auth = { type: 'oauth1', ...creds, realm: 'Photo Album', callback: 'http://127.0.0.1:1/cb', verifier: 'v!', nonce: 'n0nce', timestamp: '1700000000' };
    const { last } = await send({ url: `${base}/o?a=1`, auth: { ...auth, disableHeaderEncoding: true } });
    const header = String(last.headers.authorization);
    expect(header).toMatch(/^OAuth realm="Photo Album",oauth_consumer_key="ck",oauth_token="tk",oauth_signature_method="HMAC-SHA1",oauth_timestamp="1700000000",oauth_nonce="n0nce",oauth_version="1.0",oauth_callback="http:\/\/127.0.0.1:1\/cb",oauth_verifier="v!",oauth_signature="[^"%]+"$/);
    // The values hold no %, so a server decoding them reads them alike; the signature checks out.
    expect(oauth1Check(last, secrets).ok).toBe(true);
    // The same request encoded (the default) carries the same signature, only written encoded.
    const encoded = String((await send({ url: `${base}/o?a=1`, auth })).last.headers.authorization);
    expect(encoded).toContain('realm="Photo%20Album"');
    expect(decodeURIComponent(/oauth_signature="([^"]+)"/.exec(encoded)![1]!)).toBe(/oauth_signature="([^"]+)"/.exec(header)![1]);
  });

  it('HMAC-SHA256 in a URL-encoded body, the body parameters signed too', async () => {
    const { last } = await send({ method: 'POST', url: `${base}/o?x=1`, body: { type: 'formUrlencoded', form: [{ key: 'name', value: 'a b&c' }, { key: 'n', value: 'é' }] }, auth: { type: 'oauth1', ...creds, signatureMethod: 'HMAC-SHA256', addParamsToHeader: false } });
    expect(last.headers.authorization).toBeUndefined();
    const check = oauth1Check(last, secrets);
    expect(check).toMatchObject({ ok: true, where: 'body' });
    expect(new URLSearchParams(last.body.toString()).get('name')).toBe('a b&c');
  });

  it('HMAC-SHA512 in the query of a GET, with a fixed nonce and timestamp', async () => {
    const { last } = await send({ url: `${base}/o?x=1`, auth: { type: 'oauth1', ...creds, signatureMethod: 'HMAC-SHA512', addParamsToHeader: false, nonce: 'n0nce', timestamp: '1700000000' } });
    const check = oauth1Check(last, secrets);
    expect(check).toMatchObject({ ok: true, where: 'query', params: { oauth_nonce: 'n0nce', oauth_timestamp: '1700000000' } });
  });

  it('PLAINTEXT sends the encoded secrets; a fresh nonce each send', async () => {
    const first = await send({ url: `${base}/o`, auth: { type: 'oauth1', ...creds, signatureMethod: 'PLAINTEXT' } });
    expect(oauth1Check(first.last, secrets).ok).toBe(true);
    const second = await send({ url: `${base}/o`, auth: { type: 'oauth1', ...creds, signatureMethod: 'PLAINTEXT' } });
    expect(oauth1Check(second.last, secrets).params.oauth_nonce).not.toBe(oauth1Check(first.last, secrets).params.oauth_nonce);
  });

  it('RSA-SHA256 with a key file and RSA-SHA1 with the key as text (PKCS#1), checked with the public key', async () => {
    const viaFile = await send({ url: `${base}/o?a=1`, auth: { type: 'oauth1', ...creds, signatureMethod: 'RSA-SHA256', privateKeyFile: 'keys/rsa.pem' } });
    expect(oauth1Check(viaFile.last, { ...secrets, publicKey: rsa.publicKey }).ok).toBe(true);
    const pkcs1 = await fs.readFile(path.join(root, 'keys', 'rsa1.pem'), 'utf8');
    const viaText = await send({ url: `${base}/o`, auth: { type: 'oauth1', ...creds, signatureMethod: 'RSA-SHA1', privateKey: pkcs1 } });
    expect(oauth1Check(viaText.last, { ...secrets, publicKey: rsa.publicKey }).ok).toBe(true);
    expect(oauth1Check(viaText.last, { ...secrets, publicKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey }).ok).toBe(false);
  });

  it('includeBodyHash signs a JSON body by its hash', async () => {
    const { last } = await send({ method: 'PUT', url: `${base}/o`, body: { type: 'json', text: '{"a":1}' }, auth: { type: 'oauth1', ...creds, includeBodyHash: true } });
    const check = oauth1Check(last, secrets);
    expect(check.ok).toBe(true);
    expect(check.params.oauth_body_hash).toBe((await import('node:crypto')).createHash('sha1').update('{"a":1}').digest('base64'));
  });

  it('bad settings fail before sending, with what to do', async () => {
    await expect(prepare({ url: `${base}/o`, auth: { type: 'oauth1' } })).rejects.toThrow(/requests\/|request "R": OAuth 1\.0: the consumer key is empty; set consumerKey/);
    await expect(prepare({ url: `${base}/o`, auth: { type: 'oauth1', consumerKey: 'k', signatureMethod: 'RSA-SHA1' } })).rejects.toThrow(/needs a private key: set privateKey to the PEM text .* or privateKeyFile/);
    await expect(prepare({ url: `${base}/o`, auth: { type: 'oauth1', consumerKey: 'k', signatureMethod: 'RSA-SHA1', privateKeyFile: 'keys/broken.pem' } })).rejects.toThrow(/private key \(privateKeyFile keys\/broken\.pem\) is not a usable PEM private key/);
    await expect(prepare({ url: `${base}/o`, auth: { type: 'oauth1', consumerKey: 'k', signatureMethod: 'RSA-SHA1', privateKeyFile: '../../etc/passwd' } })).rejects.toThrow(/lies outside the workspace folder/);
    await expect(prepare({ url: `${base}/o`, auth: { type: 'oauth1', consumerKey: 'k', signatureMethod: 'RSA-SHA1', privateKey: pem(ec.privateKey) } })).rejects.toThrow(/needs an RSA private key; this one is ec/);
    expect(parseResource('request', { name: 'R', auth: { type: 'oauth1', signatureMethod: 'MD5' } }).ok).toBe(false);
  });
});

describe('JWT Bearer (RFC 7515 checked by the server with Node crypto)', () => {
  it('HS256 in the Authorization header with its prefix, payload and extra header fields', async () => {
    const { last } = await send({ url: `${base}/j`, auth: { type: 'jwt', algorithm: 'HS256', secret: 'k3y', payload: '{"sub":"{{who}}","n":1}', header: '{"cty":"x"}', headerPrefix: 'JWT' } });
    const [prefix, token] = String(last.headers.authorization).split(' ');
    expect(prefix).toBe('JWT');
    const check = jwtCheck(token!, Buffer.from('k3y'));
    expect(check).toMatchObject({ ok: true, header: { alg: 'HS256', typ: 'JWT', cty: 'x' }, payload: { sub: '{{who}}', n: 1 } });
    expect(jwtCheck(token!, Buffer.from('other')).ok).toBe(false);
  });

  it('HS384 with a Base64 secret, sent as a query parameter', async () => {
    const secret = randomBytes(48);
    const { last } = await send({ url: `${base}/j?a=1`, auth: { type: 'jwt', algorithm: 'HS384', secret: secret.toString('base64'), isSecretBase64Encoded: true, addTokenTo: 'queryParam', queryParamKey: 'access_token' } });
    expect(last.headers.authorization).toBeUndefined();
    const token = new URLSearchParams(last.target.split('?')[1]).get('access_token')!;
    expect(jwtCheck(token, secret).ok).toBe(true);
  });

  it('RS256 from a key file, PS512 and ES256 from key text', async () => {
    for (const [algorithm, keys, source] of [['RS256', rsa, { privateKeyFile: 'keys/rsa.pem' }], ['PS512', rsa, { privateKey: pem(rsa.privateKey) }], ['ES256', ec, { privateKey: pem(ec.privateKey) }]] as const) {
      const { last } = await send({ url: `${base}/j`, auth: { type: 'jwt', algorithm, payload: '{"iss":"ferry"}', ...source } });
      const check = jwtCheck(String(last.headers.authorization).slice('Bearer '.length), keys.publicKey);
      expect(check.ok, algorithm).toBe(true);
      expect(check.header.alg).toBe(algorithm);
    }
  });

  it('says what is wrong: payload not JSON, not an object, no secret, a key that does not fit the algorithm', async () => {
    await expect(prepare({ url: `${base}/j`, auth: { type: 'jwt', secret: 's', payload: '{nope' } })).rejects.toThrow(/JWT Bearer: the payload is not valid JSON/);
    await expect(prepare({ url: `${base}/j`, auth: { type: 'jwt', secret: 's', payload: '[1]' } })).rejects.toThrow(/payload must be a JSON object/);
    await expect(prepare({ url: `${base}/j`, auth: { type: 'jwt' } })).rejects.toThrow(/JWT Bearer: the secret is empty/);
    await expect(prepare({ url: `${base}/j`, auth: { type: 'jwt', algorithm: 'ES256', privateKey: pem(rsa.privateKey) } })).rejects.toThrow(/JWT Bearer ES256: the token cannot be signed with this key/);
  });
});

describe('encrypted private keys (a signing auth has no passphrase field)', () => {
  it('are refused with the file or field, that it is encrypted, and how to decrypt it, not an OpenSSL error', async () => {
    const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string;
    const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string;
    await fs.writeFile(path.join(root, 'keys', 'enc.pem'), pkcs8);
    const fromFile = await prepare({ url: `${base}/j`, auth: { type: 'jwt', algorithm: 'RS256', privateKeyFile: 'keys/enc.pem' } }).then(() => undefined, (e: Error) => e);
    expect(fromFile).toBeInstanceOf(PrepareError);
    expect(fromFile!.message).toBe('request "R": the JWT Bearer RS256 private key (privateKeyFile keys/enc.pem) is encrypted with a passphrase, which Ferry cannot ask for when signing; decrypt it once (openssl pkey -in keys/enc.pem -out key.pem asks for the passphrase) and name the decrypted file, or put its PEM text in a secret variable used in privateKey.');
    const fromText = await prepare({ url: `${base}/o`, auth: { type: 'oauth1', signatureMethod: 'RSA-SHA256', consumerKey: 'ck', privateKey: pkcs1 } }).then(() => undefined, (e: Error) => e);
    expect(fromText!.message).toMatch(/the OAuth 1\.0 RSA-SHA256 private key \(privateKey\) is encrypted with a passphrase, .*openssl pkey -in FILE -out key\.pem/);
    expect(fromText!.message).not.toMatch(/error:|libcrypto/);
  });
});

describe('ASAP (a JWT checked by the server)', () => {
  it('signs iss, sub (the issuer by default), aud, jti, iat and exp with the key id', async () => {
    const { last } = await send({ url: `${base}/a`, auth: { type: 'asap', alg: 'ES256', iss: 'svc-a', aud: 'svc-b', kid: 'svc-a/key1', privateKey: pem(ec.privateKey), exp: '600', claims: '{"scope":"read"}' } });
    const token = String(last.headers.authorization).replace(/^Bearer /, '');
    const check = jwtCheck(token, ec.publicKey);
    expect(check.ok).toBe(true);
    expect(check.header).toMatchObject({ alg: 'ES256', kid: 'svc-a/key1' });
    expect(check.payload).toMatchObject({ iss: 'svc-a', sub: 'svc-a', aud: 'svc-b', scope: 'read' });
    expect(Number(check.payload.exp) - Number(check.payload.iat)).toBe(600);
    expect(String(check.payload.jti)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('RS256 from a key file; missing fields and a bad expiry are named', async () => {
    const { last } = await send({ url: `${base}/a`, auth: { type: 'asap', iss: 'i', sub: 's', aud: 'a', kid: 'k', privateKeyFile: 'keys/rsa.pem' } });
    const check = jwtCheck(String(last.headers.authorization).replace(/^Bearer /, ''), rsa.publicKey);
    expect(check).toMatchObject({ ok: true, payload: { sub: 's' } });
    expect(Number(check.payload.exp) - Number(check.payload.iat)).toBe(3600);
    await expect(prepare({ url: `${base}/a`, auth: { type: 'asap', privateKeyFile: 'keys/rsa.pem' } })).rejects.toThrow(/ASAP: iss, aud, kid are empty/);
    await expect(prepare({ url: `${base}/a`, auth: { type: 'asap', iss: 'i', aud: 'a', kid: 'k', exp: '1h', privateKeyFile: 'keys/rsa.pem' } })).rejects.toThrow(/exp must be the token's lifetime in whole seconds/);
  });
});

describe('Hawk (the MAC recomputed by the server)', () => {
  it('signs with id, key, ext, app and dlg, sha256 and sha1, and hashes the payload when asked', async () => {
    const { last } = await send({ method: 'POST', url: `${base}/h?x=1`, body: { type: 'json', text: '{"a":"✓"}' }, auth: { type: 'hawk', authId: 'dh37', authKey: 'werxhqb98', extraData: 'some "ext"\\data', app: 'app1', delegation: 'dlg1', includePayloadHash: true } });
    const check = hawkCheck(last, port, { key: 'werxhqb98', algorithm: 'sha256' });
    expect(check).toMatchObject({ ok: true, hashOk: true, attributes: { id: 'dh37', ext: 'some "ext"\\data', app: 'app1', dlg: 'dlg1' } });
    expect(hawkCheck(last, port, { key: 'wrong', algorithm: 'sha256' }).ok).toBe(false);
    const sha1 = await send({ url: `${base}/h`, auth: { type: 'hawk', authId: 'id', authKey: 'k', algorithm: 'sha1', timestamp: '1700000000', nonce: 'abc' } });
    expect(hawkCheck(sha1.last, port, { key: 'k', algorithm: 'sha1' })).toMatchObject({ ok: true, hashOk: undefined, attributes: { ts: '1700000000', nonce: 'abc' } });
  });

  it('replaces an old signature saved in the request\'s own Authorization header (collection exports carry one)', async () => {
    const { last } = await send({ url: `${base}/h`, headers: [{ key: 'Authorization', value: 'Hawk id="x", ts="1", nonce="n", mac="stale"' }], auth: { type: 'hawk', authId: 'id', authKey: 'k' } });
    expect(hawkCheck(last, port, { key: 'k', algorithm: 'sha256' }).ok).toBe(true);
    expect(String(last.headers.authorization)).not.toContain('stale');
  });

  it('without an id or without a key the request goes unsigned, as Newman sends it (a saved Authorization header stays)', async () => {
    for (const auth of [{ authKey: 'k' }, { authId: 'id' }, {}]) {
      const { prepared, result, last } = await send({ url: `${base}/h`, auth: { type: 'hawk', ...auth } });
      expect(result.status).toBe(200);
      expect(last.headers.authorization, JSON.stringify(auth)).toBeUndefined();
      expect(prepared.signed).toBe(false);
      expect(prepared.signEachHop).toBeUndefined();
    }
    const saved = await send({ url: `${base}/h`, headers: [{ key: 'Authorization', value: 'Hawk id="x", mac="m"' }], auth: { type: 'hawk', authKey: 'k' } });
    expect(saved.last.headers.authorization).toBe('Hawk id="x", mac="m"');
  });

  it('refuses values that would break the header', async () => {
    await expect(prepare({ url: `${base}/h`, auth: { type: 'hawk', authId: 'a"b', authKey: 'k' } })).rejects.toThrow(/Hawk: authId may hold printable ASCII/);
    await expect(prepare({ url: `${base}/h`, auth: { type: 'hawk', authId: 'a', authKey: 'k', timestamp: 'now' } })).rejects.toThrow(/timestamp must be seconds/);
    // The library threw its own error here, which ended the whole run.
    await expect(prepare({ url: `${base}/h`, auth: { type: 'hawk', authId: 'a', authKey: 'k', extraData: 'café' } })).rejects.toThrow(/Hawk: extraData \(ext\) may hold printable ASCII characters only\./);
  });
});

describe('Akamai EdgeGrid (checked with the akamai-edgegrid package)', () => {
  const creds = { clientToken: 'akab-client', clientSecret: 'c2VjcmV0', accessToken: 'akab-access' };
  const expected = (r: Received, headersToSign: Record<string, string>, host = `http://${r.host}`) => {
    const fields = Object.fromEntries(String(r.headers.authorization).replace(/^EG1-HMAC-SHA256 /, '').split(';').map((p) => p.split(/=(.*)/s) as [string, string]));
    return EdgeGridAuth.generateAuth({ path: r.target, method: r.method, headers: {}, body: r.body.toString('utf8'), headersToSign }, creds.clientToken, creds.clientSecret, creds.accessToken, host, undefined, fields.nonce!, fields.timestamp!).headers.Authorization;
  };

  it('signs a POST body and the chosen headers, in order', async () => {
    const { last } = await send({ method: 'POST', url: `${base}/e/p?q=1`, headers: [{ key: 'X-One', value: '  a   b ' }, { key: 'X-Two', value: '2' }], body: { type: 'text', text: 'hello edge' }, auth: { type: 'edgegrid', ...creds, headersToSign: 'X-One, X-Two' } });
    expect(String(last.headers.authorization)).toMatch(/^EG1-HMAC-SHA256 client_token=akab-client;access_token=akab-access;timestamp=\d{8}T\d\d:\d\d:\d\d\+0000;nonce=[0-9a-f-]{36};signature=/);
    expect(last.headers.authorization).toBe(expected(last, { 'X-One': '  a   b ', 'X-Two': '2' }));
  });

  it('signs for the baseURL host, cuts the hashed body at maxBodySize, and uses a fixed nonce and timestamp', async () => {
    const body = 'x'.repeat(200);
    const { last } = await send({ method: 'POST', url: `${base}/e`, body: { type: 'text', text: body }, auth: { type: 'edgegrid', ...creds, baseURL: 'https://akab-host.luna.akamaiapis.net', maxBodySize: 100, nonce: 'n-1', timestamp: '20260101T00:00:00+0000' } });
    expect(String(last.headers.authorization)).toContain('timestamp=20260101T00:00:00+0000;nonce=n-1;');
    // The package hashes the first 128 KB; give it the first 100 bytes to match maxBodySize.
    const cut = { ...last, body: last.body.subarray(0, 100), target: last.target };
    const fromPackage = expected(cut, {}, 'http://akab-host.luna.akamaiapis.net');
    expect(last.headers.authorization).toBe(fromPackage);
  });

  it('names the missing credentials', async () => {
    await expect(prepare({ url: `${base}/e`, auth: { type: 'edgegrid', clientToken: 'c' } })).rejects.toThrow(/Akamai EdgeGrid: clientSecret, accessToken are empty; copy them from your \.edgerc/);
  });
});

describe('NTLM (the three messages on one connection, NTLMv2 checked by the server)', () => {
  it('negotiates, answers the challenge with NTLMv2 for the domain user, on the same socket', async () => {
    const challenge = randomBytes(8);
    let negotiateSocket: Socket | undefined;
    let result: ReturnType<typeof ntlmV2Check> | undefined;
    let sameSocket = false;
    answer = (r, res, socket) => {
      const auth = String(r.headers.authorization ?? '');
      if (ntlmType(auth) === 1) {
        negotiateSocket = socket;
        res.writeHead(401, { 'WWW-Authenticate': ntlmType2(challenge, 'CORP') }).end();
      } else if (ntlmType(auth) === 3) {
        result = ntlmV2Check(auth, challenge, 'Pa55 ✓');
        sameSocket = socket === negotiateSocket;
        res.writeHead(result.ok && sameSocket ? 200 : 401).end(result.ok ? `hello ${result.user}` : 'bad');
      } else res.writeHead(401, { 'WWW-Authenticate': 'NTLM' }).end();
    };
    try {
      const { result: sent } = await send({ method: 'POST', url: `${base}/n`, body: { type: 'text', text: 'payload' }, auth: { type: 'ntlm', username: 'alice', password: 'Pa55 ✓', domain: 'corp', workstation: 'ws1' } });
      expect(sent.status).toBe(200);
      expect(Buffer.from(sent.body).toString()).toBe('hello alice');
      expect(result).toMatchObject({ ok: true, v2: true, user: 'alice', domain: 'CORP', workstation: 'WS1' });
      expect(sameSocket).toBe(true);
      expect(received.map((r) => r.body.toString())).toEqual(['payload', 'payload']);
      // DOMAIN\user in the username works as Windows writes it.
      const slash = await send({ url: `${base}/n`, auth: { type: 'ntlm', username: 'corp\\bob', password: 'Pa55 ✓' } });
      expect(slash.result.status).toBe(200);
      expect(result).toMatchObject({ user: 'bob', domain: 'CORP' });
      // A wrong password: the server's check fails and its 401 is the response.
      const wrong = await send({ url: `${base}/n`, auth: { type: 'ntlm', username: 'alice', password: 'nope', domain: 'corp' } });
      expect(wrong.result.status).toBe(401);
      expect(result!.ok).toBe(false);
      expect(received).toHaveLength(2);
    } finally {
      answer = (_r, res) => res.end('ok');
    }
  });

  it('goes over HTTP/1.1 to an HTTPS server that offers HTTP/2 (auto or http2): NTLM authenticates a connection, which HTTP/2 shares', async () => {
    const { key, cert } = await testCertificate();
    const challenge = randomBytes(8);
    const versions: string[] = [];
    let negotiateSocket: unknown;
    // As IIS does: an HTTP/2 request with NTLM is reset with HTTP_1_1_REQUIRED.
    const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
      versions.push(req.httpVersion);
      if (req.httpVersion === '2.0') return req.stream.close(http2.constants.NGHTTP2_HTTP_1_1_REQUIRED);
      const auth = String(req.headers.authorization ?? '');
      if (ntlmType(auth) === 1) {
        negotiateSocket = req.socket;
        res.writeHead(401, { 'WWW-Authenticate': ntlmType2(challenge, 'CORP') }).end();
      } else if (ntlmType(auth) === 3 && ntlmV2Check(auth, challenge, 'pw').ok && req.socket === negotiateSocket) res.end('hello');
      else res.writeHead(401, { 'WWW-Authenticate': 'NTLM' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/n`;
    try {
      for (const httpVersion of ['auto', 'http2'] as const) {
        versions.length = 0;
        const { result } = await send({ url, auth: { type: 'ntlm', username: 'alice', password: 'pw', domain: 'corp' }, settings: { verifyTls: false, httpVersion } });
        expect(result.status, httpVersion).toBe(200);
        expect(result.httpVersion).toBe('1.1');
        expect(versions).toEqual(['1.1', '1.1']);
      }
    } finally {
      server.close();
    }
  });

  it('a server that answers without a challenge gets no second try; a malformed challenge is named', async () => {
    answer = (_r, res) => res.writeHead(401, { 'WWW-Authenticate': 'NTLM' }).end();
    try {
      const { result } = await send({ url: `${base}/n`, auth: { type: 'ntlm', username: 'a', password: 'p' } });
      expect(result.status).toBe(401);
      expect(received).toHaveLength(1);
      answer = (_r, res) => res.writeHead(401, { 'WWW-Authenticate': 'NTLM AAAA' }).end();
      await expect(send({ url: `${base}/n`, auth: { type: 'ntlm', username: 'a', password: 'p' } })).rejects.toThrow(/127\.0\.0\.1:\d+: the server's NTLM challenge cannot be read/);
      await expect(prepare({ url: `${base}/n`, auth: { type: 'ntlm' } })).rejects.toThrow(/NTLM auth: the username is empty/);
    } finally {
      answer = (_r, res) => res.end('ok');
    }
  });

  it('the test MD4 is RFC 1320 MD4', () => {
    expect(md4(Buffer.from('abc')).toString('hex')).toBe('a448017aaf21d8525fc10ae87aa6729d');
    expect(md4(Buffer.from('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toString('hex')).toBe('e33b4ddc9c38f2199c3e7b164fcc0536');
  });
});

describe('code export of the signing types (spec 4.7 rule 7)', () => {
  it('copies one signature with a comment that it expires; an unsignable one says no credentials are sent', async () => {
    const signed = await prepareRequest({ request: request({ url: `${base}/h`, auth: { type: 'hawk', authId: 'id', authKey: 'k' } }), folders: [], workspace: { root, file: { auth: { type: 'none' }, headers: [] } } }, { unsendableAuth: 'omit' });
    const code = toCode(signed, 'curl/bash');
    expect(code).toMatch(/Hawk: the signature below was made for one send and expires soon/);
    expect(code).toMatch(/Authorization: Hawk id=/);
    const unsigned = await prepareRequest({ request: request({ url: `${base}/h`, auth: { type: 'hawk', authId: 'id', authKey: 'k', timestamp: 'soon' } }), folders: [], workspace: { root, file: { auth: { type: 'none' }, headers: [] } } }, { unsendableAuth: 'omit' });
    // Why, as a send would say it (it said only 'check the auth settings'), and never the request's path twice.
    const unsignedCode = toCode(unsigned, 'curl/bash');
    expect(unsignedCode).toContain('# Hawk: this code cannot sign the request, and Ferry could not sign it for this export: Hawk: timestamp must be seconds since 1970 (digits), got "soon"; leave it empty to use the current time.\n# No credentials are sent: sign each request with a Hawk library.\n');
    const ntlm = await prepareRequest({ request: request({ url: `${base}/n`, auth: { type: 'ntlm', username: 'u', password: 'p' } }), folders: [], workspace: { root, file: { auth: { type: 'none' }, headers: [] } } }, { unsendableAuth: 'omit' });
    const ntlmCode = toCode(ntlm, 'python/requests');
    expect(ntlmCode).toMatch(/NTLM auth: this code cannot answer the server's NTLM challenge, so it sends no credentials/);
    expect(ntlmCode).toMatch(/Send the request from Ferry, or use a client with NTLM support \(for example curl --ntlm/);
    expect(ntlmCode).not.toMatch(/Authorization/);
  });
});

it('PrepareError is what bad auth settings raise', async () => {
  await expect(prepare({ url: `${base}/h`, auth: { type: 'hawk', authId: 'a', authKey: 'k', timestamp: 'now' } })).rejects.toBeInstanceOf(PrepareError);
});

describe('a redirect within the origin is signed again for its method and URL (as curl -L and Postman do)', () => {
  const creds = { consumerKey: 'ck', consumerSecret: 'c&s ✓', token: 'tk', tokenSecret: 'ts!' };
  const secrets = { consumerSecret: 'c&s ✓', tokenSecret: 'ts!' };
  /** `/from?code=N` redirects to `/to/there?y=2` with status N; every other path answers 200. */
  const redirecting = () => {
    answer = (r, res) => {
      const code = new URL(r.target, base).searchParams.get('code');
      if (r.target.startsWith('/from') && code) res.writeHead(Number(code), { location: '/to/there?y=2' }).end();
      else res.end('ok');
    };
  };
  afterAll(() => {
    answer = (_r, res) => res.end('ok');
  });

  it('OAuth 1.0 in the header (302), in the query (301) and in a form body kept by a 307', async () => {
    redirecting();
    const header = await send({ url: `${base}/from?code=302`, auth: { type: 'oauth1', ...creds } });
    expect(received.map((r) => r.target)).toEqual(['/from?code=302', '/to/there?y=2']);
    expect(received.map((r) => oauth1Check(r, secrets).ok)).toEqual([true, true]);
    expect(header.result.status).toBe(200);

    await send({ url: `${base}/from?code=301`, auth: { type: 'oauth1', ...creds, addParamsToHeader: false } });
    expect(received.map((r) => oauth1Check(r, secrets))).toMatchObject([{ ok: true, where: 'query' }, { ok: true, where: 'query' }]);
    expect(received[1]!.target).toMatch(/^\/to\/there\?y=2&oauth_/);

    await send({ method: 'POST', url: `${base}/from?code=307`, body: { type: 'formUrlencoded', form: [{ key: 'name', value: 'a b' }] }, auth: { type: 'oauth1', ...creds, addParamsToHeader: false } });
    expect(received.map((r) => oauth1Check(r, secrets))).toMatchObject([{ ok: true, where: 'body' }, { ok: true, where: 'body' }]);
    // One set of oauth_* parameters in the body sent again, not the first hop's beside the new one.
    const second = new URLSearchParams(received[1]!.body.toString());
    expect(second.getAll('oauth_signature')).toHaveLength(1);
    expect(second.get('name')).toBe('a b');
  });

  it('Akamai EdgeGrid: a 303 after a POST is signed again as a GET without the body', async () => {
    redirecting();
    const edge = { clientToken: 'akab-client', clientSecret: 'c2VjcmV0', accessToken: 'akab-access' };
    await send({ method: 'POST', url: `${base}/from?code=303`, body: { type: 'text', text: 'hello edge' }, auth: { type: 'edgegrid', ...edge } });
    expect(received.map((r) => `${r.method} ${r.target} ${r.body.length}`)).toEqual(['POST /from?code=303 10', 'GET /to/there?y=2 0']);
    for (const r of received) {
      const fields = Object.fromEntries(String(r.headers.authorization).replace(/^EG1-HMAC-SHA256 /, '').split(';').map((p) => p.split(/=(.*)/s) as [string, string]));
      const fromPackage = EdgeGridAuth.generateAuth({ path: r.target, method: r.method, headers: {}, body: r.body.toString('utf8'), headersToSign: {} }, edge.clientToken, edge.clientSecret, edge.accessToken, `http://${r.host}`, undefined, fields.nonce!, fields.timestamp!).headers.Authorization;
      expect(r.headers.authorization, r.target).toBe(fromPackage);
    }
  });

  it('JWT in the query: a Location that carries the token parameter gets the fresh token in its place, not a second one', async () => {
    // The server sends the query on with the redirect, as many do: the first hop's token is in the Location.
    answer = (r, res) => {
      if (r.target.startsWith('/from')) res.writeHead(302, { location: `/to/there?y=2&${r.target.split('?')[1]}` }).end();
      else res.end('ok');
    };
    const secret = Buffer.from('k3y');
    const { result } = await send({ url: `${base}/from?x=1`, auth: { type: 'jwt', algorithm: 'HS256', secret: 'k3y', payload: '{"sub":"me"}', addTokenTo: 'queryParam', queryParamKey: 'jwt' } });
    expect(result.status).toBe(200);
    expect(received).toHaveLength(2);
    const query = new URLSearchParams(received[1]!.target.split('?')[1]);
    expect(query.getAll('jwt')).toHaveLength(1);
    expect(query.get('y')).toBe('2');
    expect(query.get('x')).toBe('1');
    expect(jwtCheck(query.get('jwt')!, secret).ok).toBe(true);
    // A token saved in the request's own query (an old one) is replaced too, as a saved Authorization header is.
    await send({ url: `${base}/j?jwt=stale&a=1`, auth: { type: 'jwt', algorithm: 'HS256', secret: 'k3y', addTokenTo: 'queryParam', queryParamKey: 'jwt' } });
    const first = new URLSearchParams(received[0]!.target.split('?')[1]);
    expect(first.getAll('jwt')).toHaveLength(1);
    expect(first.get('a')).toBe('1');
    expect(jwtCheck(first.get('jwt')!, secret).ok).toBe(true);
  });

  it('a key file is read once per prepared request: replaced before a redirect, the redirect is still signed with the key of the first hop', async () => {
    redirecting();
    await fs.writeFile(path.join(root, 'keys', 'swap.pem'), pem(rsa.privateKey));
    received.length = 0;
    const prepared = await prepare({ url: `${base}/from?code=302`, auth: { type: 'jwt', algorithm: 'RS256', payload: '{"iss":"ferry"}', privateKeyFile: 'keys/swap.pem' } });
    // Another key lands in the file while the request is on its way (a rotation, an editor saving).
    await fs.writeFile(path.join(root, 'keys', 'swap.pem'), pem(ec.privateKey));
    const result = await sendHttp(prepared, { agents });
    expect(result.status).toBe(200);
    expect(received.map((r) => r.target)).toEqual(['/from?code=302', '/to/there?y=2']);
    expect(received.map((r) => jwtCheck(String(r.headers.authorization).slice('Bearer '.length), rsa.publicKey).ok)).toEqual([true, true]);
  });

  it('Hawk with the payload hash: a 308 keeps the POST and its body, signed for the new path', async () => {
    redirecting();
    const { result } = await send({ method: 'POST', url: `${base}/from?code=308`, body: { type: 'json', text: '{"a":1}' }, auth: { type: 'hawk', authId: 'id', authKey: 'k', includePayloadHash: true } });
    expect(received.map((r) => `${r.method} ${r.target}`)).toEqual(['POST /from?code=308', 'POST /to/there?y=2']);
    expect(received.map((r) => hawkCheck(r, port, { key: 'k', algorithm: 'sha256' }))).toMatchObject([{ ok: true, hashOk: true }, { ok: true, hashOk: true }]);
    expect(result.status).toBe(200);
  });
});
