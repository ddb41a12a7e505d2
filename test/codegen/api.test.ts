import { describe, expect, test } from 'vitest';
import { exportRequest, formatTargetList, listTargets, resolveTarget, TARGETS, toCode } from '../../src/codegen/index.js';
import { urlForCode } from '../../src/codegen/urls.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { binaryBody, LONG_JSON, textBody } from './fixtures.js';

const simple: PreparedRequest = {
  method: 'POST',
  url: 'https://api.example.com/x',
  headers: [{ name: 'Content-Type', value: 'application/json' }],
  body: textBody('json', '{"a":1}'),
  authType: 'none',
};

describe('listTargets', () => {
  test('covers every language of spec 4.7 with one default per language', () => {
    const rows = listTargets('linux');
    const languages = [...new Set(rows.map((r) => r.language))];
    expect(languages).toEqual(['cURL', 'HTTPie', 'Wget', 'PowerShell', 'JavaScript', 'Python', 'Go', 'Java', 'Kotlin', 'Swift', 'C#', 'PHP', 'Ruby', 'Rust', 'Dart', 'C']);
    for (const lang of new Set(rows.map((r) => r.lang))) expect(rows.filter((r) => r.lang === lang && r.default)).toHaveLength(1);
    expect(rows.length).toBe(TARGETS.length);
  });

  test('cURL defaults to bash on Linux and macOS, cmd on Windows', () => {
    expect(resolveTarget('curl', undefined, 'darwin').id).toBe('curl/bash');
    expect(resolveTarget('curl', undefined, 'win32').id).toBe('curl/cmd');
    expect(listTargets('win32').find((r) => r.default && r.lang === 'curl')?.lib).toBe('cmd');
  });

  test('the printed list names every --lang/--lib pair', () => {
    const text = formatTargetList('linux');
    for (const t of TARGETS) expect(text).toContain(`${t.lang} --lib ${t.lib}`);
  });
});

describe('resolveTarget', () => {
  test('takes names, display names and aliases in any case', () => {
    expect(resolveTarget('Python', 'HTTPX').id).toBe('python/httpx');
    expect(resolveTarget('js', 'axios').id).toBe('javascript/axios');
    expect(resolveTarget('C#').id).toBe('csharp/httpclient');
    expect(resolveTarget('go').id).toBe('go/net-http');
    expect(resolveTarget('curl', 'PowerShell').id).toBe('curl/powershell');
  });

  test('unknown names say what to choose', () => {
    expect(() => resolveTarget('cobol')).toThrow(/Unknown language "cobol".*curl, httpie/);
    expect(() => resolveTarget('python', 'urllib3')).toThrow(/Unknown library "urllib3" for Python. Choose one of: requests, httpx/);
    expect(() => toCode(simple, 'nope/nope')).toThrow(/Unknown code target "nope\/nope"/);
  });
});

describe('exportRequest', () => {
  test('returns the target and its code', () => {
    const { target, code } = exportRequest(simple, { lang: 'python', lib: 'requests' });
    expect(target.id).toBe('python/requests');
    expect(code).toContain('requests.request("POST", url, headers=headers, data=body)');
  });
});

describe('content rules', () => {
  test('a GET body is left out with a comment only where the library cannot send one', () => {
    const get: PreparedRequest = { ...simple, method: 'GET' };
    expect(toCode(get, 'javascript/fetch')).toMatch(/\/\/ Body left out: fetch cannot send a body with GET\.[\s\S]*method: "GET",\n  headers/);
    expect(toCode(get, 'javascript/fetch')).not.toContain('body:');
    expect(toCode(get, 'python/requests')).toContain('data=body');
  });

  test('repeated headers: kept where the library allows, joined (Cookie with ;) where not', () => {
    const twice: PreparedRequest = {
      ...simple,
      headers: [
        { name: 'Cookie', value: 'a=1' },
        { name: 'X-A', value: '1' },
        { name: 'Cookie', value: 'b=2' },
        { name: 'x-a', value: '2' },
      ],
    };
    const requests = toCode(twice, 'python/requests');
    expect(requests).toContain('"Cookie": "a=1; b=2"');
    expect(requests).toContain('"X-A": "1, 2"');
    const curl = toCode(twice, 'curl/bash');
    expect(curl.match(/-H 'Cookie: /g)).toHaveLength(2);
    const java = toCode(twice, 'java/httpclient');
    expect(java).toContain('.header("Cookie", "a=1; b=2")');
    expect(java.match(/\.header\("X-A"|\.header\("x-a"/g)).toHaveLength(2);
  });

  test('the OAuth 2.0 placeholder is explained in every target', () => {
    const noToken: PreparedRequest = { ...simple, authType: 'oauth2', oauth2TokenCached: false, headers: [{ name: 'Authorization', value: 'Bearer <access-token>' }] };
    for (const t of TARGETS) {
      const code = toCode(noToken, t);
      expect(code, t.id).toContain('<access-token>');
      expect(code, t.id).toMatch(/no cached access token/);
    }
  });

  test('headers about one connection are left out everywhere, with a comment (Ferry never sends them)', () => {
    const hop: PreparedRequest = {
      ...simple,
      headers: [...simple.headers, { name: 'Connection', value: 'keep-alive' }, { name: 'Keep-Alive', value: 'timeout=5' }, { name: 'Transfer-Encoding', value: 'chunked' }, { name: 'TE', value: 'trailers' }],
    };
    for (const t of TARGETS) {
      const code = toCode(hop, t);
      expect(code, t.id).not.toMatch(/keep-alive|timeout=5|chunked|trailers/);
      if (t.id === 'java/httpclient') expect(code).toMatch(/Connection left out: java\.net\.http\.HttpClient refuses/);
      expect(code, t.id).toMatch(/Keep-Alive.*left out: they manage one connection, not the request, and Ferry does not send them either/);
    }
  });

  test('notes from the caller appear at the top of the code of every target', () => {
    for (const t of TARGETS) {
      const code = toCode(simple, t, ['Basic auth: a note for the reader.']);
      expect(code.split('\n').slice(0, 3).join('\n'), t.id).toContain('Basic auth: a note for the reader.');
    }
  });

  test('signing auth types: the comment says whether a signature is in the code', () => {
    const hawk: PreparedRequest = { ...simple, authType: 'hawk' };
    const aws: PreparedRequest = { ...simple, authType: 'awsv4', signed: true, headers: [...simple.headers, { name: 'Authorization', value: 'AWS4-HMAC-SHA256 Credential=x' }] };
    for (const t of TARGETS) {
      expect(toCode(hawk, t), t.id).toMatch(/Hawk: this code cannot sign the request, and Ferry could not sign it for this export \(check the auth settings\)\.[\s\S]*No credentials are sent: sign each request with a Hawk library\./);
      expect(toCode(hawk, t), t.id).not.toMatch(/signature below/);
      expect(toCode(aws, t), t.id).toMatch(/AWS Signature Version 4: the signature below was made for one send and expires soon\.[\s\S]*This code cannot sign each request/);
    }
  });

  test('a comment can never end early or break the line', () => {
    const hostile: PreparedRequest = { ...simple, headers: [{ name: 'Host', value: 'x' }], authType: 'digest' };
    for (const t of TARGETS) expect(toCode(hostile, t), t.id).not.toMatch(/\*\/|left out:.*\n[^\n]*left out/);
  });
});

describe('long bodies', () => {
  test('cmd and PowerShell take a text body too long for their command line from a temporary file', () => {
    const body = JSON.stringify({ text: 'x'.repeat(20_000) });
    const prepared: PreparedRequest = { ...simple, body: textBody('json', body) };
    const cmd = toCode(prepared, 'curl/cmd');
    expect(cmd).toContain('certutil -f -decode');
    expect(Math.max(...cmd.split('\n').map((l) => l.length))).toBeLessThan(8191);
    const ps = toCode(prepared, 'curl/powershell');
    expect(ps).toContain('[IO.File]::WriteAllBytes($bodyFile');
    expect(ps).not.toContain('x'.repeat(100));
    // A short body stays on the command line.
    expect(toCode(simple, 'curl/cmd')).toContain('--data-raw');
    expect(toCode(simple, 'curl/powershell')).toContain('--data-raw');
  });

  test('a cmd command longer than cmd.exe runs (8191 characters: long headers or URL) says so; PowerShell past 32767, the limit of a program start', () => {
    const withHeader = (length: number): PreparedRequest => ({ ...simple, headers: [...simple.headers, { name: 'X-Token', value: 'x'.repeat(length) }] });
    /** The command as cmd reads it: the REM lines left out, each ^ line continuation joined. */
    const commandLength = (code: string) => code.split('\n').filter((l) => !l.startsWith('REM ')).join('\n').replace(/\^\n/g, '').trimEnd().length;
    const long = toCode(withHeader(8200), 'curl/cmd');
    const length = commandLength(long);
    expect(length).toBeGreaterThan(8191);
    expect(long).toMatch(new RegExp(`^REM This command is ${length.toLocaleString('en-US')} characters long; cmd\\.exe runs at most 8,191 per command line`, 'm'));
    expect(long).toMatch(/^REM .*PowerShell \(curl\.exe\)/m);
    // Still the command, after the comment.
    expect(long).toContain(`X-Token: ${'x'.repeat(8200)}`);
    // A long URL counts too; a command that fits says nothing.
    expect(toCode({ ...simple, url: `https://api.example.com/x?q=${'y'.repeat(8200)}` }, 'curl/cmd')).toMatch(/^REM This command is [\d,]+ characters long/m);
    expect(toCode(withHeader(7000), 'curl/cmd')).not.toMatch(/characters long/);
    expect(toCode(withHeader(8200), 'curl/powershell')).not.toMatch(/characters long/);
    expect(toCode(withHeader(33_000), 'curl/powershell')).toMatch(/^# This command is [\d,]+ characters long; Windows starts a program with at most 32,767/m);
    expect(toCode(withHeader(33_000), 'curl/bash')).not.toMatch(/characters long/);
  });

  test('Kotlin (not run here) joins text and Base64 past one JVM string constant from pieces, as Java does', () => {
    const longest = (code: string) => Math.max(...code.split('\n').map((l) => l.length));
    const text: PreparedRequest = { ...simple, body: textBody('json', LONG_JSON) };
    const binary: PreparedRequest = { ...simple, body: binaryBody(Uint8Array.from({ length: 100_000 }, (_, i) => i % 256)) };
    for (const prepared of [text, binary]) {
      const code = toCode(prepared, 'kotlin/okhttp');
      expect(code).toContain('listOf(\n');
      expect(code).toContain(').joinToString("")');
      // A piece is 16000 UTF-16 units; written with \uXXXX escapes at most six characters each.
      expect(longest(code)).toBeLessThan(16000 * 6 + 20);
    }
    expect(toCode(simple, 'kotlin/okhttp')).not.toContain('joinToString');
  });
});

describe('curl globbing', () => {
  test('a URL with [ ] gets --globoff in every shell (curl would read a range), and only then', () => {
    const get = (url: string): PreparedRequest => ({ method: 'GET', url, headers: [], body: { kind: 'none' }, authType: 'none' });
    for (const id of ['curl/bash', 'curl/cmd', 'curl/powershell']) {
      expect(toCode(get('https://api.example.com/x?ids[0]=1&tags[]=a'), id), id).toMatch(/^curl(\.exe)? --globoff /m);
      expect(toCode(get('https://api.example.com/x?ids=1'), id), id).not.toContain('--globoff');
    }
  });
});

describe('urlForCode', () => {
  test('percent-encodes what RFC 3986 does not allow and keeps placeholders', () => {
    expect(urlForCode('http://h/a b/ü?q="x"&r=\\^`|{y}#frag')).toBe('http://h/a%20b/%C3%BC?q=%22x%22&r=%5C%5E%60%7C%7By%7D');
    expect(urlForCode('{{base}}/p/{{id}}?x={{q}}')).toBe('{{base}}/p/{{id}}?x={{q}}');
    expect(urlForCode('http://h/100%/ok%2f')).toBe('http://h/100%25/ok%2F');
    expect(urlForCode('http://h/\u0000\n')).toBe('http://h/%00%0A');
  });

  test('is idempotent', () => {
    const once = urlForCode('http://h/ü "x"?a=%zz&b=日本');
    expect(urlForCode(once)).toBe(once);
  });
});

describe('multipart parts', () => {
  test('name and file name in Content-Disposition are written as Ferry sends them (quotes, backslash, line break)', async () => {
    const { encodeMultipart } = await import('../../src/protocols/http/multipart.js');
    const { shapeRequest } = await import('../../src/codegen/normalize.js');
    const { contentDisposition } = await import('../../src/codegen/multipart.js');
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-codegen-part-'));
    try {
      const fileName = 'q"uo;te,\\x ü.txt';
      await fs.writeFile(path.join(dir, fileName), 'hi');
      const parts = [
        { name: 'field "q"\nnext', value: 'v' },
        { name: 'file', file: { path: `files/${fileName}`, absolutePath: path.join(dir, fileName) }, contentType: 'text/plain' },
      ];
      const sent = (await encodeMultipart(parts)).body.toString('utf8');
      const prepared: PreparedRequest = { method: 'POST', url: 'http://127.0.0.1/up', headers: [], body: { kind: 'multipart', parts }, authType: 'none' };
      const code = shapeRequest(prepared, TARGETS[0]!.rules, TARGETS[0]!.library);
      if (code.body.kind !== 'multipart') throw new Error('expected a multipart body');
      for (const part of code.body.parts) expect(sent).toContain(`Content-Disposition: ${contentDisposition(part)}\r\n`);
      expect(code.body.parts[1]!.file!.fileName).toBe(fileName);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('PowerShell expressions', () => {
  test('method arguments and hashtable entries are always quoted strings (a bare word would run as a command)', async () => {
    const { GOLDEN_BASE, GOLDEN_CASES } = await import('./fixtures.js');
    const plain: PreparedRequest = {
      method: 'PUT',
      url: 'https://api.example.com/x',
      headers: [{ name: 'X-Trace', value: 'abc' }],
      body: binaryBody(new Uint8Array([0, 1, 2])),
      authType: 'none',
    };
    const text: PreparedRequest = { ...plain, headers: [{ name: 'Content-Type', value: 'text/plain' }], body: textBody('text', 'abc') };
    const requests = [plain, text, ...GOLDEN_CASES.map((c) => c.request(GOLDEN_BASE))];
    for (const id of ['powershell/invoke-webrequest', 'curl/powershell']) {
      for (const request of requests) {
        const code = toCode(request, id);
        for (const line of code.split('\n').filter((l) => !l.startsWith('#'))) {
          // Hashtable entries: 'Name' = 'value'.
          if (/^ {2}\S.* = /.test(line)) expect(line, `${id}: ${line}`).toMatch(/^ {2}'(?:[^']|'')*' = '(?:[^']|'')*'$/);
          // Arguments of .NET calls: quoted strings, variables, numbers, [types] or nested calls.
          for (const call of line.matchAll(/(?:::\w+|\.Add)\(([^()]*)\)/g)) {
            for (const argument of call[1]!.split(/,\s*/).filter(Boolean)) expect(argument, `${id}: ${line}`).toMatch(/^(?:'.*'|\$\w+|\d+|\[.*)$/);
          }
        }
      }
    }
    expect(toCode(plain, 'curl/powershell')).toContain("[Convert]::FromBase64String('AAEC')");
    expect(toCode(text, 'powershell/invoke-webrequest')).toContain("[Text.Encoding]::UTF8.GetBytes('abc')");
  });
});
