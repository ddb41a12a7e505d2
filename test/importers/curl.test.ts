/** cURL import beyond the corpus: Windows cmd and PowerShell, prompts, GraphQL, the option table's notes. */
import { describe, expect, it } from 'vitest';
import { curlToRequest, detectDialect } from '../../src/importers/curl/index.js';
import { toCode } from '../../src/codegen/index.js';
import { shapeRequest } from '../../src/codegen/normalize.js';
import { curlRules } from '../../src/codegen/targets/curl.js';
import { urlForCode } from '../../src/codegen/urls.js';
import { executionCases, GOLDEN_CASES } from '../codegen/fixtures.js';

const bashTwin = `curl 'https://api.example.com/items?x=1' -H 'accept: application/json' -H 'content-type: application/json' --data-raw '{"name":"a \\"b\\" 100%"}'`;
const expected = {
  method: 'POST',
  url: 'https://api.example.com/items?x=1',
  headers: [{ key: 'accept', value: 'application/json' }, { key: 'content-type', value: 'application/json' }],
  body: { type: 'json', text: '{"name":"a \\"b\\" 100%"}' },
};

describe('shell dialects', () => {
  it('POSIX: the bash twin', () => {
    expect(curlToRequest(bashTwin).request).toMatchObject(expected);
  });

  it('Windows cmd as browsers copy it: ^ escapes, ^" quotes, caret continuations, %^ guards', () => {
    const cmd = [
      'curl ^"https://api.example.com/items?x=1^" ^',
      '  -H ^"accept: application/json^" ^',
      '  -H ^"content-type: application/json^" ^',
      '  --data-raw ^"^{^\\^"name^\\^":^\\^"a ^\\^\\^\\^"b^\\^\\^\\^" 100^%^\\^"^}^"',
    ].join('\r\n');
    expect(detectDialect(cmd)).toBe('cmd');
    const { request } = curlToRequest(cmd);
    expect(request).toMatchObject(expected);
  });

  it('Windows cmd with plain double quotes and \\" escapes', () => {
    const cmd = 'curl "https://api.example.com/items?x=1" ^\n -H "accept: application/json" -H "content-type: application/json" ^\n --data-raw "{\\"name\\":\\"a \\\\\\"b\\\\\\" 100%\\"}"';
    expect(curlToRequest(cmd, { dialect: 'cmd' }).request).toMatchObject(expected);
  });

  it('PowerShell: curl.exe, backtick continuations, single quotes with doubled quotes, `" in double quotes', () => {
    const ps = [
      "curl.exe 'https://api.example.com/items?x=1' `",
      '  -H "accept: application/json" `',
      "  -H 'content-type: application/json' `",
      `  --data-raw '{"name":"a \\"b\\" 100%"}'`,
    ].join('\n');
    expect(detectDialect(ps)).toBe('powershell');
    expect(curlToRequest(ps).request).toMatchObject(expected);
    const ps2 = 'curl.exe -X PUT "https://x/`$keep" -H "X-Q: it`"s" -d \'it\'\'s\'';
    expect(curlToRequest(ps2).request).toMatchObject({ method: 'PUT', url: 'https://x/$keep', headers: [{ key: 'X-Q', value: 'it"s' }], body: { type: 'text', text: "it's", contentType: 'application/x-www-form-urlencoded' } });
  });

  it('variables the Windows shell would fill in are kept as written, with a note; escaped ones are quiet', () => {
    const note = /variables the shell would fill in/;
    const ps = curlToRequest('curl.exe https://x/items -H "Authorization: Bearer $env:API_TOKEN"');
    expect(ps.request.headers).toEqual([{ key: 'Authorization', value: 'Bearer $env:API_TOKEN' }]);
    expect(ps.notes.join(' ')).toMatch(note);
    expect(ps.notes.join(' ')).toContain('$env:NAME');
    expect(curlToRequest('curl.exe https://x/$($id)').notes.join(' ')).toMatch(note);
    // Single quotes and backtick escapes keep PowerShell from expanding: nothing to say.
    expect(curlToRequest("curl.exe 'https://x/$keep' -H \"X: a`$b\"").notes.join(' ')).not.toMatch(note);

    const cmd = curlToRequest('curl "https://x/items?key=%API_KEY%" ^\n -H "accept: */*"', { dialect: 'cmd' });
    expect(cmd.request.url).toBe('https://x/items?key=%API_KEY%');
    expect(cmd.notes.join(' ')).toContain('%NAME%');
    // Browsers guard every % with ^ (%^API_KEY%), and percent-encoded bytes (%E2%9C%93) are no variables.
    expect(curlToRequest('curl "https://x/items?key=%^API_KEY%" ^\n -H "a: b"', { dialect: 'cmd' }).notes.join(' ')).not.toMatch(note);
    expect(curlToRequest('curl "https://x/%E2%9C%93" ^\n -H "a: b"', { dialect: 'cmd' }).notes.join(' ')).not.toMatch(note);
  });

  it('a ^ in POSIX data is no sign of cmd: a command with a long option and a regex in its JSON stays POSIX', () => {
    const command = `curl https://x/api -H 'Content-Type: application/json' --data-raw '{"pattern":"^a+$","q":"it\\"s"}'`;
    expect(detectDialect(command)).toBe('posix');
    expect(curlToRequest(command).request.body).toEqual({ type: 'json', text: '{"pattern":"^a+$","q":"it\\"s"}' });
    expect(curlToRequest("curl -H 'X-Face: ^_^' --data 'a=1' http://x").request).toMatchObject({ url: 'http://x', headers: [{ key: 'X-Face', value: '^_^' }] });
  });

  it("$'…': \\x and octal escapes are bytes, read as UTF-8 (Latin-1 when they are not UTF-8)", () => {
    const { request } = curlToRequest("curl $'https://x/?q=\\xc3\\xa9' --data-raw $'caf\\xc3\\xa9 \\303\\251 \\u00e9 \\xe9 \\x41'");
    expect(request.url).toBe('https://x/?q=é');
    expect(request.body).toMatchObject({ text: 'café é é é A' });
  });

  it('cmd: REM lines are comments, ^ and two line ends are a line break inside an argument', () => {
    const cmd = ['REM it\'s a "comment" & more', 'curl.exe -X PUT http://x/notes ^', '  --data-raw ^"one^', '', 'two^"'].join('\r\n');
    expect(detectDialect(cmd)).toBe('cmd');
    const { request, notes } = curlToRequest(cmd);
    expect(request).toMatchObject({ method: 'PUT', url: 'http://x/notes', body: { text: 'one\ntwo' } });
    expect(notes).toEqual([]);
  });

  it('Copy as cURL in every shell reads back as the request it was made from', () => {
    for (const testCase of [...GOLDEN_CASES, ...executionCases('/home/me/api')]) {
      const prepared = testCase.request('https://api.example.com/t');
      for (const id of ['curl/bash', 'curl/cmd', 'curl/powershell']) {
        const what = `${testCase.name} ${id}`;
        const { request } = curlToRequest(toCode(prepared, id));
        expect(request.method, what).toBe(prepared.method);
        expect(request.url, what).toBe(urlForCode(prepared.url));
        // The headers the code writes: less what curl sets itself (spec 4.7 rule 4).
        const headers = shapeRequest(prepared, curlRules, 'curl').headers;
        expect(request.headers ?? [], what).toEqual(headers.map((h) => ({ key: h.name, value: h.value })));
        const body = request.body as { type: string; text?: string; multipart?: unknown[] } | undefined;
        // Bodies a shell cannot carry go through Base64 or a temporary file, which an import cannot read.
        if (body?.text !== undefined && prepared.body.kind === 'bytes') expect(body.text, what).toBe(new TextDecoder().decode(prepared.body.bytes));
        if (prepared.body.kind === 'multipart') {
          expect(body?.multipart, what).toEqual(
            prepared.body.parts.map((p) => ({ key: p.name, value: p.file ? p.file.absolutePath : p.value, file: Boolean(p.file), contentType: p.contentType ?? (p.file ? 'application/octet-stream' : undefined) })).map((p) => (p.contentType ? p : { key: p.key, value: p.value, file: p.file })),
          );
        }
      }
    }
  });

  it('a leading $ or PS prompt is ignored; only the first command is imported', () => {
    expect(curlToRequest('$ curl https://x/a').request.url).toBe('https://x/a');
    expect(curlToRequest('PS C:\\Users\\me> curl.exe https://x/b').request.url).toBe('https://x/b');
    const { request, notes } = curlToRequest('curl https://x/1 && curl https://x/2');
    expect(request.url).toBe('https://x/1');
    expect(notes.join(' ')).toMatch(/more than one command/);
  });
});

describe('options', () => {
  it('default methods: POST with data or form, PUT with -T, HEAD with -I, GET otherwise; -X wins', () => {
    expect(curlToRequest('curl -d a=1 http://x').request.method).toBe('POST');
    expect(curlToRequest('curl -F a=1 http://x').request.method).toBe('POST');
    expect(curlToRequest('curl -T f.bin http://x/up').request).toMatchObject({ method: 'PUT', body: { type: 'binary', file: 'f.bin' } });
    expect(curlToRequest('curl -I http://x').request.method).toBe('HEAD');
    expect(curlToRequest('curl -G -d q=1 http://x').request).toMatchObject({ method: 'GET', url: 'http://x?q=1' });
    expect(curlToRequest('curl -X DELETE -d a=1 http://x').request.method).toBe('DELETE');
  });

  it('bodies by Content-Type: form rows, XML, JSON-looking data with a note, -d @file as binary', () => {
    expect(curlToRequest("curl -d 'a=1&b=x+y%21' http://x").request.body).toEqual({ type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'b', value: 'x y!' }] });
    expect(curlToRequest("curl -H 'Content-Type: text/xml' -d '<a/>' http://x").request.body).toEqual({ type: 'xml', text: '<a/>' });
    const json = curlToRequest(`curl -d '{"a":1}' http://x`);
    expect(json.request.body).toEqual({ type: 'json', text: '{"a":1}' });
    expect(json.notes.join(' ')).toMatch(/looks like JSON.*no Content-Type/);
    const file = curlToRequest('curl -d @body.json http://x');
    expect(file.request.body).toEqual({ type: 'binary', file: 'body.json' });
    // curl -d drops CR and LF from the file; --data-binary sends it as it is, as Ferry does.
    expect(file.notes).toContain('curl -d leaves out the line breaks of body.json; Ferry sends the file as it is (as --data-binary does).');
    expect(curlToRequest('curl --data-binary @body.json http://x').notes.join(' ')).not.toMatch(/line breaks/);
    expect(curlToRequest(`curl --json '{"a":1}' http://x`).request).toMatchObject({ headers: [{ key: 'Accept', value: 'application/json' }], body: { type: 'json' } });
  });

  it('-d @file is a binary file body only as the one data argument: among others, the file name stays in its place, with a note', () => {
    const mixed = curlToRequest('curl -d @body.json -d a=1 http://x');
    expect(mixed.request.body).toEqual({ type: 'text', text: '@body.json&a=1', contentType: 'application/x-www-form-urlencoded' });
    expect(mixed.notes).toEqual(['curl reads part of the body from body.json; the body keeps the file names in their place.']);
    const encoded = curlToRequest('curl --data-urlencode a@f.txt http://x');
    expect(encoded.request.body).toEqual({ type: 'formUrlencoded', form: [{ key: 'a', value: '@f.txt' }] });
    expect(encoded.notes.join(' ')).toMatch(/reads part of the body from f\.txt/);
    // Standard input is not part of the command: no body, and a note says so.
    const stdin = curlToRequest('curl -d @- http://x');
    expect(stdin.request.body).toBeUndefined();
    expect(stdin.notes.join(' ')).toMatch(/standard input \(@-\).*left empty/);
    expect(curlToRequest('curl --data-binary @f.bin http://x').request.body).toEqual({ type: 'binary', file: 'f.bin' });
  });

  it('GraphQL: a JSON body that is exactly a GraphQL request becomes a GraphQL body', () => {
    const body = JSON.stringify({ query: 'query Me { me { id } }', variables: { a: 1 }, operationName: 'Me' });
    expect(curlToRequest(`curl -H 'Content-Type: application/json' -d '${body}' https://x/api`).request.body).toEqual({
      type: 'graphql', graphql: { query: 'query Me { me { id } }', variables: '{\n  "a": 1\n}', operationName: 'Me' },
    });
    expect(curlToRequest(`curl --json '{"query":"x"}' https://x/graphql`).request.body).toMatchObject({ type: 'graphql' });
    expect(curlToRequest(`curl --json '{"query":"x","other":1}' https://x/graphql`).request.body).toMatchObject({ type: 'json' });
    const bare = curlToRequest(`curl -d '{"query":"{ me { id } }"}' https://x/graphql`);
    expect(bare.request.body).toMatchObject({ type: 'graphql', graphql: { query: '{ me { id } }' } });
    expect(bare.notes).toEqual(['The data looks like JSON but the command sets no Content-Type (curl would send it as form data); it was imported as a GraphQL body (sent as JSON).']);
  });

  it('auth, cookies, agent, referer, settings', () => {
    const { request, notes } = curlToRequest(
      "curl -u 'DOM\\me:pw' --ntlm -b 'a=1' -b jar.txt -A Agent -e https://r/ -k -L --max-redirs 5 -m 2.5 --http2 http://x",
    );
    expect(request).toMatchObject({
      auth: { type: 'ntlm', username: 'DOM\\me', password: 'pw' },
      headers: [{ key: 'Cookie', value: 'a=1' }, { key: 'User-Agent', value: 'Agent' }, { key: 'Referer', value: 'https://r/' }],
      settings: { verifyTls: false, followRedirects: true, maxRedirects: 5, timeoutMs: 2500, httpVersion: 'http2' },
    });
    expect(notes.join(' ')).toMatch(/cookie file "jar.txt"/);
    // A -H Cookie header wins over -b, as in curl (which then sends only the header).
    const both = curlToRequest("curl -b 'a=1' -H 'Cookie: z=9' http://x");
    expect(both.request.headers).toEqual([{ key: 'Cookie', value: 'z=9' }]);
    expect(both.notes).toEqual(['The -b cookies (a=1) were left out: the command also sets a Cookie header, and curl then sends only that header.']);
    expect(curlToRequest('curl --oauth2-bearer T http://x').request.auth).toEqual({ type: 'bearer', token: 'T' });
    expect(curlToRequest('curl -u a:b --digest http://x').request.auth).toEqual({ type: 'digest', username: 'a', password: 'b' });
    // -u USER makes curl prompt for the password: say so; USER: is an empty password, no prompt.
    const prompted = curlToRequest('curl -u ada http://x');
    expect(prompted.request.auth).toEqual({ type: 'basic', username: 'ada', password: '' });
    expect(prompted.notes).toEqual(["The command gives -u ada without a password, which curl asks for when it runs; the password was left empty. Set it in the request's Auth tab (auth.password in its file)."]);
    expect(curlToRequest('curl -u ada: http://x').notes).toEqual([]);
  });

  it('every spelling the spec 4.6 table names, short and long, does what its row says', () => {
    const same = (a: string, b: string) => expect(curlToRequest(`curl ${a} http://x/p`).request, a).toEqual(curlToRequest(`curl ${b} http://x/p`).request);
    same('-X PUT', '--request PUT');
    same("-H 'A: 1'", "--header 'A: 1'");
    for (const data of ['--data', '--data-ascii', '--data-binary', '--data-raw']) same(`${data} a=1`, '-d a=1');
    same("--data-urlencode 'a=b c'", "-d 'a=b+c'");
    same("-F 'a=1'", "--form 'a=1'");
    same("--form-string 'a=1'", "-F 'a=1'");
    same('-T f.bin', '--upload-file f.bin');
    same('-G -d a=1', '--get -d a=1');
    same('-I', '--head');
    same('-u a:b', '--user a:b');
    same("-b 'c=1'", "--cookie 'c=1'");
    same('-A ua', '--user-agent ua');
    same('-e https://r/', '--referer https://r/');
    same('-k', '--insecure');
    same('-L', '--location');
    same('-m 3', '--max-time 3');
    same('-0', '--http1.0');
    same('-g', '--globoff');
    expect(curlToRequest('curl --get -d a=1 http://x/p').request).toMatchObject({ method: 'GET', url: 'http://x/p?a=1' });
    expect(curlToRequest('curl --head http://x/p').request.method).toBe('HEAD');
    for (const [option, version] of [['-0', 'http1'], ['--http1.1', 'http1'], ['--http2', 'http2'], ['--http3', 'http3']] as const) {
      expect(curlToRequest(`curl ${option} http://x/p`).request.settings, option).toEqual({ httpVersion: version });
    }
    // -g: brackets and braces taken literally, kept in the URL as written.
    expect(curlToRequest("curl -g 'http://x/p?a[]=1&b={c}'").request.url).toBe('http://x/p?a[]=1&b={c}');
    expect(curlToRequest('curl --url http://x/p --url-query a=b').request.url).toBe('http://x/p?a=b');
    // -s and the other output options: ignored without a note.
    expect(curlToRequest('curl -s -S -v -o out.txt -w x --silent http://x/p').notes).toEqual([]);
  });

  it('--aws-sigv4 with -u KEY:SECRET becomes AWS Signature V4, never Basic auth that would send the secret', () => {
    const signed = curlToRequest("curl --aws-sigv4 'aws:amz:eu-west-1:execute-api' -u 'AKID:wJal/rXUt+nFEMI' https://abc.execute-api.eu-west-1.amazonaws.com/prod");
    expect(signed.request.auth).toEqual({ type: 'awsv4', accessKey: 'AKID', secretKey: 'wJal/rXUt+nFEMI', region: 'eu-west-1', service: 'execute-api' });
    expect(signed.notes.join(' ')).not.toContain('aws-sigv4');
    // Region and service left to the host, as curl does.
    expect(curlToRequest('curl --aws-sigv4 aws:amz -u K:S https://s3.eu-west-1.amazonaws.com/b').request.auth).toEqual({ type: 'awsv4', accessKey: 'K', secretKey: 'S' });
    const other = curlToRequest('curl --aws-sigv4 osc:osc:eu:api -u K:S https://api.example.com/');
    expect(other.request.auth).toEqual({ type: 'none' });
    expect(other.notes.join(' ')).toMatch(/signs for the provider "osc", which Ferry cannot sign for \(AWS only\); the request was imported without auth/);
  });

  it('notes: proxies and certificates ignored with a note, unknown options listed, output options silent', () => {
    const { notes } = curlToRequest('curl -sSv -o out.txt -x http://p:1 --socks5 h:1 --cacert ca.pem --cert c.pem --frobnicate --compressed http://x');
    const text = notes.join('\n');
    expect(text).toMatch(/Proxy options are not imported \(--proxy, --socks5\)/);
    expect(text).toMatch(/Certificate options are not imported \(--cacert, --cert\)/);
    // The notes point to settings that exist.
    expect(text).toContain('ferry config set proxy URL');
    expect(text).toContain('caFiles and clientCertificates');
    expect(text).toMatch(/not supported and were ignored: --frobnicate\b/);
    expect(text).not.toMatch(/silent|verbose|output|compressed/);
  });

  it('--compressed (browsers\' Copy as cURL adds it) asks Ferry to decode the answer: settings.decompress', () => {
    expect(curlToRequest('curl --compressed http://x').request.settings).toEqual({ decompress: true });
    expect(curlToRequest('curl http://x').request.settings).toBeUndefined();
  });

  it('-F: a type with parameters is one type, as curl sends it', () => {
    const { request, notes } = curlToRequest("curl -F 'f=@up.txt;type=text/plain; charset=utf-8' -F 'j={};type=application/json;charset=utf-8;filename=x.json' http://x");
    expect(request.body).toEqual({
      type: 'multipart',
      multipart: [
        { key: 'f', value: 'up.txt', file: true, contentType: 'text/plain; charset=utf-8' },
        { key: 'j', value: '{}', file: false, contentType: 'application/json;charset=utf-8' },
      ],
    });
    expect(notes.join(' ')).not.toMatch(/charset/);
  });

  it('headers: Name: with no value is skipped, Name; sends an empty header', () => {
    expect(curlToRequest("curl -H 'X-Empty:' -H 'X-Blank;' http://x").request.headers).toEqual([{ key: 'X-Blank', value: '' }]);
  });
});
