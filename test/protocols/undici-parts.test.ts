/**
 * The HTTP client requires undici's dispatchers from their own files (undici-parts.ts) instead of
 * undici's index, which loads all of undici. These must stay the classes the index exports: a
 * newer undici that moves a file fails here, not in a user's run. And a cookie jar with no cookie
 * answers without loading tough-cookie, while one with cookies behaves as before.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { undiciAgent, undiciDispatcher, undiciProxyAgent } from '../../src/protocols/http/undici-parts.js';
import { CookieStore } from '../../src/protocols/http/cookie-jar.js';

const require = createRequire(import.meta.url);

describe("undici's parts", () => {
  it('are the classes undici exports', () => {
    const undici = require('undici') as typeof import('undici');
    expect(undiciAgent()).toBe(undici.Agent);
    expect(undiciProxyAgent()).toBe(undici.ProxyAgent);
    expect(undiciDispatcher()).toBe(undici.Dispatcher);
    expect(new (undiciAgent())()).toBeInstanceOf(undici.Dispatcher);
  });

  it("support/fetch-on.ts's request and global dispatcher are undici's", () => {
    const undici = require('undici') as typeof import('undici');
    expect(require('undici/lib/api/index.js').request).toBe(require('undici/lib/api/api-request.js'));
    expect(require('undici/lib/global.js').getGlobalDispatcher).toBe(undici.getGlobalDispatcher);
  });
});

describe('a lazily made cookie jar', () => {
  it('an empty jar and an empty kept jar send no cookie; a kept cookie is sent', () => {
    expect(CookieStore.fromSerialized(undefined).cookieHeader('http://a.test/')).toBe('');
    const jar = CookieStore.fromSerialized(undefined);
    jar.store('http://a.test/', ['sid=1; Path=/']);
    expect(jar.changed).toBe(true);
    const kept = jar.serialize();
    expect(CookieStore.fromSerialized(kept).cookieHeader('http://a.test/x')).toBe('sid=1');
    const emptied = CookieStore.fromSerialized(kept);
    expect(emptied.remove()).toBe(true);
    expect(CookieStore.fromSerialized(emptied.serialize()).cookieHeader('http://a.test/')).toBe('');
  });

  it('a damaged kept jar starts empty and still stores', () => {
    for (const damaged of [{ cookies: 'nope' }, 'text', 42, { version: 'x', cookies: [{ key: 5 }] }]) {
      const jar = CookieStore.fromSerialized(damaged);
      expect(jar.cookieHeader('http://a.test/')).toBe('');
      jar.store('http://a.test/', ['k=v']);
      expect(jar.cookieHeader('http://a.test/')).toBe('k=v');
    }
  });

  it('a response without Set-Cookie changes nothing', () => {
    const jar = CookieStore.fromSerialized(undefined);
    jar.store('http://a.test/', []);
    expect(jar.changed).toBe(false);
    expect(jar.list()).toEqual([]);
  });
});
