/** The secret mask replaces a value in every form a send writes it: as typed, URL-encoded, and lowered in a host. */
import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/variables/index.js';

describe('SecretMask', () => {
  it('masks a value as written, percent-encoded, form-encoded and lowered by the URL parser in a host', () => {
    const mask = new SecretMask();
    mask.add('S3cret Key/1');
    const host = new URL('http://S3CRETKEYHOST.invalid/').href; // the parser lowers hosts
    mask.add('S3CRETKEYHOST');
    expect(mask.text(`as typed S3cret Key/1, ${encodeURIComponent('S3cret Key/1')}, ${new URLSearchParams({ k: 'S3cret Key/1' })}`)).toBe('as typed ***, ***, k=***');
    expect(mask.text(`getaddrinfo ENOTFOUND ${new URL(host).hostname} (${host})`)).toBe('getaddrinfo ENOTFOUND ***.invalid (http://***.invalid/)');
    expect(mask.text('nothing secret here')).toBe('nothing secret here');
  });
});

describe('SecretMask in JSON', () => {
  it('masks a value a server echoes inside a JSON string: quotes and backslashes escaped, non-ASCII as \\u escapes, / as \\/', () => {
    const secret = 'Pa"ss\\wörd/12';
    const mask = new SecretMask();
    mask.add(secret);
    // Node's JSON.stringify (Express, Fastify), Python's json.dumps (ASCII escapes), PHP's json_encode (\/ too).
    const node = JSON.stringify({ key: secret });
    const python = '{"key": "Pa\\"ss\\\\w\\u00f6rd/12"}';
    const php = '{"key":"Pa\\"ss\\\\w\\u00f6rd\\/12"}';
    expect(mask.text(node)).toBe('{"key":"***"}');
    expect(mask.text(python)).toBe('{"key": "***"}');
    expect(mask.text(php)).toBe('{"key":"***"}');
    // The masked text is still JSON.
    expect(JSON.parse(mask.text(node))).toEqual({ key: '***' });
  });
});
