/**
 * Spec 4.2 rows checked against the corpus: every kept auth type with all its settings, the
 * OAuth 2.0 grants, protocolProfileBehavior on requests, folders and the collection, and URLs
 * given only as parts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, decodeText, type ImportedNode, type ImportResult } from '../../src/importers/index.js';
import { IMPORTED_AUTH_TYPES, OAUTH2_REDIRECT_URI } from '../../src/model/index.js';
import { CORPUS } from '../support/corpus.js';
import { AUTH_FIELDS_NOT_IMPORTED } from '../../src/importers/postman/auth.js';

const POSTMAN = path.join(CORPUS, 'postman');
type Obj = Record<string, any>;
const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const importFile = (file: string) => convert(decodeText(readFileSync(path.join(POSTMAN, file))), { label: file });
const importCollection = (collection: Obj) => convert(JSON.stringify({ info: { name: 'C', schema }, ...collection }), { label: 't' });

/** Requests and folders of an import by their path of names (`C/Folder/Request`). */
function byPath(result: ImportResult): Map<string, Obj> {
  const out = new Map<string, Obj>();
  const walk = (nodes: ImportedNode[], prefix: string) => {
    for (const n of nodes) {
      if (n.type === 'folder') {
        out.set(`${prefix}${n.name}/`, n.settings ?? {});
        walk(n.children, `${prefix}${n.name}/`);
      } else out.set(`${prefix}${String(n.request.name)}`, n.request);
    }
  };
  walk(result.items, '');
  return out;
}

/** Source items with auth, by the same paths. */
function sourceAuths(doc: Obj): Array<{ where: string; auth: Obj }> {
  const out: Array<{ where: string; auth: Obj }> = [];
  const root = `${doc.info.name}/`;
  if (doc.auth) out.push({ where: root, auth: doc.auth });
  const walk = (items: Obj[], prefix: string) => {
    for (const item of items) {
      if (Array.isArray(item.item)) {
        if (item.auth) out.push({ where: `${prefix}${item.name}/`, auth: item.auth });
        walk(item.item, `${prefix}${item.name}/`);
      } else if (item.request?.auth) out.push({ where: `${prefix}${item.name}`, auth: item.request.auth });
    }
  };
  walk(doc.item, root);
  return out;
}

const params = (auth: Obj): Obj => {
  const raw = auth[auth.type];
  return Array.isArray(raw) ? Object.fromEntries(raw.map((e: Obj) => [e.key, e.value])) : { ...raw };
};

describe('auth types kept with their settings (spec 4.2)', () => {
  const files = ['v20-hawk-auth', 'v21-awsv4-auth', 'v21-digest-auth', 'v21-edgegrid-auth', 'v21-ntlm-auth', 'v21-oauth1-variants', 'v21-auth-all-types-yaak'];
  for (const name of files) {
    it(`${name}: same type, every setting`, async () => {
      const file = `${name}.postman_collection.json`;
      const doc = JSON.parse(readFileSync(path.join(POSTMAN, file), 'utf8')) as Obj;
      const imported = byPath(await importFile(file));
      const kept = sourceAuths(doc).filter((s) => (IMPORTED_AUTH_TYPES as readonly string[]).includes(s.auth.type));
      expect(kept.length).toBeGreaterThan(0);
      for (const { where, auth } of kept) {
        const mine = imported.get(where)?.auth;
        expect(mine?.type, where).toBe(auth.type);
        for (const [key, value] of Object.entries(params(auth))) {
          const left = [...AUTH_FIELDS_NOT_IMPORTED['*']!, ...(AUTH_FIELDS_NOT_IMPORTED[auth.type] ?? [])].includes(key);
          if (left) expect(mine[key], `${where} ${key} left out`).toBeUndefined();
          else if (value !== null && value !== undefined) expect(mine[key], `${where} ${key}`).toEqual(value);
        }
      }
    });
  }

  it('ASAP (not in the corpus) keeps its settings too', async () => {
    const asap = { type: 'asap', asap: [{ key: 'kid', value: 'k1' }, { key: 'issuer', value: 'me' }, { key: 'privateKey', value: '{{key}}' }, { key: 'exp', value: 3600 }] };
    const result = await importCollection({ item: [{ name: 'R', request: { url: 'http://x', auth: asap } }] });
    expect(byPath(result).get('C/R')!.auth).toEqual({ type: 'asap', kid: 'k1', issuer: 'me', privateKey: '{{key}}', exp: 3600 });
  });

  it('basic, bearer, API key in header and query, no auth and inherit', async () => {
    const kv = (o: Obj) => Object.entries(o).map(([key, value]) => ({ key, value }));
    const result = await importCollection({
      item: [
        { name: 'basic', request: { url: 'http://x', auth: { type: 'basic', basic: kv({ username: 'u', password: 'p' }) } } },
        { name: 'bearer', request: { url: 'http://x', auth: { type: 'bearer', bearer: kv({ token: 't' }) } } },
        { name: 'key-h', request: { url: 'http://x', auth: { type: 'apikey', apikey: kv({ key: 'X-K', value: 'v' }) } } },
        { name: 'key-q', request: { url: 'http://x', auth: { type: 'apikey', apikey: kv({ key: 'k', value: 'v', in: 'query' }) } } },
        { name: 'none', request: { url: 'http://x', auth: { type: 'noauth' } } },
        { name: 'inherit', request: { url: 'http://x', auth: { type: 'inherit' } } },
      ],
    });
    const r = byPath(result);
    expect(r.get('C/basic')!.auth).toEqual({ type: 'basic', username: 'u', password: 'p' });
    expect(r.get('C/bearer')!.auth).toEqual({ type: 'bearer', token: 't' });
    expect(r.get('C/key-h')!.auth).toEqual({ type: 'apiKey', key: 'X-K', value: 'v', location: 'header' });
    expect(r.get('C/key-q')!.auth).toEqual({ type: 'apiKey', key: 'k', value: 'v', location: 'query' });
    expect(r.get('C/none')!.auth).toEqual({ type: 'none' });
    expect(r.get('C/inherit')!.auth).toBeUndefined();
  });

  it('OAuth 2.0: every grant; PKCE as the collection says; implicit becomes authorization code with a note', async () => {
    const result = await importFile('v21-oauth2-variants.postman_collection.json');
    const r = byPath(result);
    expect(r.get('Oauth2/Client Creds')!.auth).toMatchObject({ type: 'oauth2', tokenUrl: 'https://api.example.com/access' });
    expect(r.get('Oauth2/Client Creds')!.auth.grantType ?? 'clientCredentials').toBe('clientCredentials');
    expect(r.get('Oauth2/password')!.auth).toMatchObject({ grantType: 'password', clientAuth: 'body', headerPrefix: 'CustomBearer', username: '{{username}}' });
    expect(r.get('Oauth2/Auth Code')!.auth).toMatchObject({ grantType: 'authorizationCode', pkce: false, redirectUri: 'https://api.example.com/callback' });
    expect(r.get('Oauth2/PKCE')!.auth).toMatchObject({ grantType: 'authorizationCode' });
    expect(r.get('Oauth2/PKCE')!.auth.pkce).not.toBe(false);
    expect(r.get('Oauth2/Implicit')!.auth).toMatchObject({ grantType: 'authorizationCode', authUrl: 'https://api.example.com/authorize' });
    expect(r.get('Oauth2/Implicit')!.auth.pkce).not.toBe(false);
    // Why (RFC 9700 deprecates it) and how it differs (a code exchanged at the token endpoint).
    expect(result.notes.join('\n')).toMatch(/The OAuth 2\.0 implicit grant was imported as authorization code with PKCE: the OAuth 2\.0 Security Best Current Practice \(RFC 9700\) deprecates the implicit grant, which returns the token in the redirect URL where it can leak\. With PKCE the redirect brings a one-time code, and Ferry exchanges it at the token endpoint for the token: set tokenUrl, and check that the provider allows the authorization code grant for this client: .*Oauth2\/Implicit/);
    // "Authorize using browser" (the hosted callback) becomes the loopback callback, with a note.
    const yaak = await importFile('v21-auth-all-types-yaak.postman_collection.json');
    expect(byPath(yaak).get('Authentication/OAuth 2 Auth Code (PKCE)')!.auth).toMatchObject({ redirectUri: OAUTH2_REDIRECT_URI });
    expect(yaak.notes.join('\n')).toMatch(/The OAuth 2\.0 redirect URL is now http:\/\/127\.0\.0\.1:53682\/callback; register it with the provider: .*OAuth 2 Auth Code \(PKCE\)/);
  });
});

describe('OAuth 2.0 parts Ferry does not bring over say so', () => {
  it('a token kept in the export, and a token sent in the URL query, each get one note listing where (both were dropped silently)', async () => {
    // Newman sends a saved accessToken as it is, where addTokenTo says.
    const corpus = await importFile('v20-auth-helpers.postman_collection.json');
    expect(corpus.notes).toContain('The OAuth 2.0 access token saved in the collection was not imported (tokens stay out of the workspace); Ferry gets a token through the grant when the request is sent: c1/OAuth2.');
    const variants = await importFile('v21-oauth2-variants.postman_collection.json');
    expect(variants.notes).toContain('OAuth 2.0 tokens are sent in the Authorization header; the collection added them to the URL query (addTokenTo: queryParams), which Ferry does not do: Oauth2/Auth Code; Oauth2/PKCE; Oauth2/Implicit from PKCE; Oauth2/Client Creds from PKCE; Oauth2/Password from PKCE.');
    expect(variants.notes.join('\n')).not.toMatch(/access token saved/);
  });
});

describe('signing auth settings Postman does not send with are left out', () => {
  it('saveHelperData and Hawk\'s appId go (a run warned about them each time); OAuth 1.0 disableHeaderEncoding is kept, with no note', async () => {
    const hawk = byPath(await importFile('v20-hawk-auth.postman_collection.json'));
    expect(hawk.get('hawkAuthTest/test hawk auth success')!.auth).toMatchObject({ type: 'hawk', authId: 'dh37fgj492je', nonce: 'eFRP2o' });
    expect(Object.keys(hawk.get('hawkAuthTest/test hawk auth success')!.auth)).not.toContain('saveHelperData');
    const oauth1 = await importFile('v21-oauth1-variants.postman_collection.json');
    expect(oauth1.notes.join('\n')).not.toMatch(/disableHeaderEncoding/);
    const r = byPath(oauth1);
    expect(r.get('Oauth1/type 2')!.auth).toMatchObject({ type: 'oauth1', disableHeaderEncoding: true });
    expect(r.get('Oauth1/type 1')!.auth).not.toHaveProperty('disableHeaderEncoding', true);
  });
});

describe('request settings from protocolProfileBehavior (spec 4.2)', () => {
  it('requests take the settings of the folders and collection above them, their own winning', async () => {
    const result = await importFile('v21-protocol-profile-behavior.postman_collection.json');
    const r = byPath(result);
    const settings = (p: string) => r.get(`protocol-profile-behavior/${p}`)!.settings;
    // Collection: followRedirects false, maxRedirects 10. Folder followRedirects: followRedirects true.
    expect(settings('followRedirects/followRedirects: true')).toEqual({ followRedirects: true, maxRedirects: 10 });
    expect(settings('followRedirects/followRedirects: false')).toEqual({ followRedirects: false, maxRedirects: 10 });
    expect(settings('maxRedirects')).toEqual({ followRedirects: true, maxRedirects: 11 });
    const notes = result.notes.join('\n');
    expect(notes).toMatch(/copied into each request inside them: protocol-profile-behavior; protocol-profile-behavior\/followRedirects/);
    // One note per setting Ferry lacks, naming every place (not one note per request).
    expect(notes).toMatch(/^The request setting followOriginalHttpMethod is not imported \(Ferry has no such setting\): protocol-profile-behavior; protocol-profile-behavior\/followOriginalHttpMethod; protocol-profile-behavior\/followOriginalHttpMethod\/followOriginalHttpMethod: false\.$/m);
    expect(notes).toMatch(/^The request setting removeRefererHeaderOnRedirect is not imported \(Ferry has no such setting\): protocol-profile-behavior; /m);
    expect(result.notes.filter((n) => n.startsWith('The request setting followOriginalHttpMethod'))).toHaveLength(1);
  });

  it('maxRedirects: counts kept; null unset; true, -1, 3.5 and 1e31 refused with a note', async () => {
    const result = await importFile('v21-max-redirects-settings.postman_collection.json');
    const r = byPath(result);
    const max = (name: string) => r.get(`Max Redirects Collection/${name}`)!.settings?.maxRedirects;
    expect([max('Ordinary Limit'), max('Large Limit'), max('Fifty Limit'), max('No Redirects'), max('Quoted Limit')]).toEqual([7, 1000, 50, 0, 100]);
    expect([max('Null Limit'), max('Unset Limit'), max('Boolean Limit'), max('Negative Limit'), max('Fractional Limit'), max('Exponent Limit')]).toEqual(Array(6).fill(undefined));
    expect(r.get('Max Redirects Collection/Reporting/Nested Large Limit')!.settings).toEqual({ maxRedirects: 75 });
    const notes = result.notes.join('\n');
    expect(notes).toMatch(/The request setting maxRedirects is not imported where it is not a count from 0 to 1000: .*Max Redirects Collection\/Boolean Limit \(true\)/);
    for (const [name, value] of [['Negative Limit', '-1'], ['Fractional Limit', '3.5'], ['Exponent Limit', '1e+31']]) expect(notes).toContain(`Max Redirects Collection/${name} (${value})`);
    expect(notes).not.toMatch(/Null Limit/);
  });

  it('strictSSL false turns TLS verification off', async () => {
    const result = await importCollection({ item: [{ name: 'R', protocolProfileBehavior: { strictSSL: false, followRedirects: 'yes' }, request: { url: 'http://x' } }] });
    expect(byPath(result).get('C/R')!.settings).toEqual({ verifyTls: false });
    expect(result.notes).toContain('The request setting followRedirects is not imported where it is not true or false: C/R ("yes").');
  });
});

describe('bodies Postman does not send (postman-runtime: empty, or pruned from GET, HEAD, COPY, PURGE, UNLOCK)', () => {
  const raw = (text: string) => ({ mode: 'raw', raw: text });
  const form = { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }] };

  it('a body on GET, HEAD, COPY, PURGE or UNLOCK is kept with type none (not sent) unless disableBodyPruning is on, with one note', async () => {
    const result = await importCollection({
      item: [
        { name: 'get raw', request: { method: 'GET', url: 'http://x', body: raw('{"a":1}') } },
        { name: 'head form', request: { method: 'HEAD', url: 'http://x', body: form } },
        { name: 'purge', request: { method: 'PURGE', url: 'http://x', body: raw('x') } },
        { name: 'no method', request: { url: 'http://x', body: raw('x') } },
        { name: 'get kept', protocolProfileBehavior: { disableBodyPruning: true }, request: { method: 'GET', url: 'http://x', body: raw('x') } },
        { name: 'post', request: { method: 'POST', url: 'http://x', body: raw('x') } },
        { name: 'delete', request: { method: 'DELETE', url: 'http://x', body: form } },
        {
          name: 'F', protocolProfileBehavior: { disableBodyPruning: true },
          item: [
            { name: 'inherited', request: { method: 'GET', url: 'http://x', body: raw('x') } },
            { name: 'own wins', protocolProfileBehavior: { disableBodyPruning: false }, request: { method: 'GET', url: 'http://x', body: raw('x') } },
          ],
        },
      ],
    });
    const r = byPath(result);
    const type = (p: string) => r.get(`C/${p}`)!.body?.type;
    expect(['get raw', 'head form', 'purge', 'no method', 'F/own wins'].map(type)).toEqual(['none', 'none', 'none', 'none', 'none']);
    expect(['get kept', 'post', 'delete', 'F/inherited'].map(type)).toEqual(['text', 'text', 'multipart', 'text']);
    // The data stays, ready to be sent by choosing a type again.
    expect(r.get('C/get raw')!.body).toEqual({ type: 'none', text: '{"a":1}' });
    expect(r.get('C/head form')!.body).toEqual({ type: 'none', multipart: [{ key: 'a', value: '1' }] });
    const notes = result.notes.filter((n) => n.includes('disableBodyPruning'));
    expect(notes).toEqual(['Postman sends no body with GET, HEAD, COPY, PURGE or UNLOCK unless the request setting disableBodyPruning is on, so these bodies were kept but not sent (type none; choose a body type to send one): C/get raw; C/head form; C/purge; C/no method; C/F/own wins.']);
  });

  it('an empty body (no text, or every form row switched off) is not sent: type none, no Content-Type', async () => {
    const result = await importCollection({
      item: [
        { name: 'empty raw', request: { method: 'POST', url: 'http://x', header: [], body: { ...raw(''), options: { raw: { language: 'json' } } } } },
        { name: 'no rows', request: { method: 'PUT', url: 'http://x', body: { mode: 'formdata', formdata: [] } } },
        { name: 'rows off', request: { method: 'POST', url: 'http://x', body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1', disabled: true }] } } },
        { name: 'one on', request: { method: 'POST', url: 'http://x', body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1', disabled: true }, { key: 'b', value: '' }] } } },
      ],
    });
    const r = byPath(result);
    expect(r.get('C/empty raw')!.body).toEqual({ type: 'none', text: '' });
    expect(r.get('C/no rows')!.body).toEqual({ type: 'none', multipart: [] });
    expect(r.get('C/rows off')!.body).toEqual({ type: 'none', form: [{ key: 'a', value: '1', enabled: false }] });
    expect(r.get('C/one on')!.body.type).toBe('formUrlencoded');
    expect(result.notes.join('\n')).not.toMatch(/disableBodyPruning|empty raw|no rows|rows off/);
  });
});

describe('URLs', () => {
  it('a URL given only as parts keeps its enabled query and hash; disabled ones are switched off', async () => {
    const url = { protocol: 'https', host: ['api', 'example', 'com'], port: '8443', path: ['v1', ':id'], query: [{ key: 'a', value: '1' }, { key: 'flag', value: null }, { key: 'off', value: '2', disabled: true }], hash: 'top', variable: [{ key: 'id', value: '7' }] };
    const result = await importCollection({ item: [{ name: 'R', request: { url } }] });
    const request = byPath(result).get('C/R')!;
    expect(request.url).toBe('https://api.example.com:8443/v1/:id?a=1&flag#top');
    expect(request.disabledParams).toEqual([{ key: 'off', value: '2' }]);
    expect(request.pathParams).toEqual([{ key: 'id', value: '7' }]);
  });
});

describe('descriptions', () => {
  it('a description on the item and one on the request are both kept', async () => {
    const result = await importFile('v20-draft-no-schema-url.postman_collection.json');
    const docs = [...byPath(result).values()].map((r) => r.docs).find((d) => typeof d === 'string' && d.includes('This is H1'));
    expect(docs).toMatch(/^<h1>This is H1<\/h1>[\s\S]*\n\nmy description$/);
  });
});

describe('scripts', () => {
  it('lists every unavailable script-API member in a note and keeps the scripts unchanged', async () => {
    const code = ['pm.cookies.get("a");', 'pm.visualizer.set("<b/>");', 'setInterval(() => {}, 5);', 'pm.sendRequest("http://x");', 'setTimeout(() => {}, 1);'];
    const items = code.map((line, i) => ({ name: `R${i}`, event: [{ listen: i % 2 ? 'prerequest' : 'test', script: { exec: [line] } }], request: { url: 'http://x' } }));
    const result = await importCollection({ item: items });
    const notes = result.notes.join('\n');
    for (const [member, i] of [['cookies', 0], ['visualizer', 1], ['setInterval', 2], ['sendRequest', 3], ['setTimeout', 4]] as const) {
      expect(notes).toMatch(new RegExp(`Scripts use ${member}, which Ferry's script API does not have; they will fail when run: C/R${i} \\((pre-request|post-response)\\)`));
      const scripts = byPath(result).get(`C/R${i}`)!.scripts;
      expect(scripts.preRequest ?? scripts.postResponse).toBe(code[i]);
    }
  });

  it('a script switched off in the collection (event disabled: true) is kept as comments, not run, as Newman skips it', async () => {
    const event = (listen: string, code: string, disabled?: boolean) => ({ listen, ...(disabled ? { disabled } : {}), script: { exec: code.split('\n') } });
    const result = await importCollection({
      event: [event('prerequest', 'pm.sendRequest("http://x");\nconsole.log(1);', true)],
      item: [{ name: 'R', event: [event('test', 'pm.test("off", () => {});', true), event('test', 'pm.test("on", () => {});')], request: { url: 'http://x' } }],
    });
    const r = byPath(result);
    expect(r.get('C/')!.scripts).toEqual({ preRequest: '// Switched off in the collection (disabled), so not run:\n// pm.sendRequest("http://x");\n// console.log(1);' });
    expect(r.get('C/R')!.scripts).toEqual({ postResponse: '// Switched off in the collection (disabled), so not run:\n// pm.test("off", () => {});\n// ---- next script ----\npm.test("on", () => {});' });
    const notes = result.notes.join('\n');
    expect(notes).toContain('Scripts switched off in the collection were kept as comments and do not run: C/R (post-response); C (pre-request).');
    // A commented-out script does not count as using an unavailable member.
    expect(notes).not.toMatch(/sendRequest/);
  });

  it('two scripts of one event on an item (or the collection) are kept apart by a break line, as Newman runs them apart', async () => {
    const event = (listen: string, code: string) => ({ listen, script: { exec: code.split('\n') } });
    const result = await importCollection({
      event: [event('prerequest', 'const a = 1;'), event('prerequest', 'const a = 2;')],
      item: [{ name: 'R', event: [event('test', 'boom();'), event('prerequest', 'console.log(0);'), event('test', 'pm.test("second", () => {});\nconsole.log(2);')], request: { url: 'http://x' } }],
    });
    const r = byPath(result);
    expect(r.get('C/')!.scripts).toEqual({ preRequest: 'const a = 1;\n// ---- next script ----\nconst a = 2;' });
    expect(r.get('C/R')!.scripts).toEqual({ preRequest: 'console.log(0);', postResponse: 'boom();\n// ---- next script ----\npm.test("second", () => {});\nconsole.log(2);' });
  });

  it('one note for OAuth 2.0 settings shared by many requests, listing the places', async () => {
    const oauth = { type: 'oauth2', oauth2: [{ key: 'grant_type', value: 'implicit' }, { key: 'useBrowser', value: true }] };
    const result = await importCollection({ item: Array.from({ length: 30 }, (_, i) => ({ name: `r${i}`, request: { url: 'http://127.0.0.1/', auth: oauth } })) });
    const implicit = result.notes.filter((n) => n.includes('implicit grant'));
    const redirect = result.notes.filter((n) => n.includes('redirect URL is now'));
    expect(implicit).toHaveLength(1);
    expect(redirect).toHaveLength(1);
    expect(implicit[0]).toMatch(/: C\/r0; C\/r1; .* C\/r19 and 10 more\.$/);
  });
});
