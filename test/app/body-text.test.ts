/** The response viewer's text: charsets, bytes that are not text, JSON indented as sent. */
import { describe, expect, it } from 'vitest';
import { bodyLanguage, bodyText, charsetOf, declaresText, indentJson, pretty, prettyView } from '../../src/app/web/body-text.js';

describe('body text', () => {
  it('picks the language a Pretty body is highlighted in by its Content-Type; other text stays plain', () => {
    const cases: Array<[string, string | undefined]> = [
      ['application/json; charset=utf-8', 'json'],
      ['application/problem+json', 'json'],
      ['application/graphql-response+json', 'json'],
      ['application/xml', 'xml'],
      ['text/xml', 'xml'],
      ['application/atom+xml', 'xml'],
      ['image/svg+xml', 'xml'],
      ['text/html; charset=utf-8', 'html'],
      ['application/xhtml+xml', 'html'],
      ['text/javascript', 'javascript'],
      ['application/javascript', 'javascript'],
      ['application/x-javascript', 'javascript'],
      ['TEXT/CSS', 'css'],
      ['text/plain', undefined],
      ['text/csv', undefined],
      ['application/x-ndjson', undefined],
      ['application/octet-stream', undefined],
      ['', undefined],
    ];
    for (const [type, language] of cases) expect(bodyLanguage(type), type).toBe(language);
    // Text the viewer indented as JSON is highlighted as JSON; under an HTML type it stays HTML.
    expect(bodyLanguage('text/plain', 'json')).toBe('json');
    expect(bodyLanguage('', 'json')).toBe('json');
    expect(bodyLanguage('text/html', 'json')).toBe('html');
  });

  it('the Pretty view of a text without a type (a stream message): JSON and XML that parse are indented and highlighted, other text is shown as it is', () => {
    expect(prettyView('{"a":[1,{"b":"x"}],"n":9007199254740993}', '', true)).toEqual({ text: '{\n  "a": [\n    1,\n    {\n      "b": "x"\n    }\n  ],\n  "n": 9007199254740993\n}', language: 'json' });
    // Already indented: JSON still (the response viewer highlighted only what its indenting changed).
    expect(prettyView('{\n  "a": 1\n}', '', true)).toEqual({ text: '{\n  "a": 1\n}', language: 'json' });
    expect(prettyView('[INFO] {not json', '', true)).toEqual({ text: '[INFO] {not json' });
    expect(prettyView('{"a": 1', '', true)).toEqual({ text: '{"a": 1' });
    expect(prettyView('<?xml version="1.0"?><a x="1"><b>hi</b></a>', '', true)).toEqual({ text: '<?xml version="1.0"?>\n<a x="1">\n  <b>hi</b>\n</a>', language: 'xml' });
    expect(prettyView('<?xml version="1.0"?><a><b></a>', '', true)).toEqual({ text: '<?xml version="1.0"?><a><b></a>' });
    // As a body without a type: markup is XML by its declaration only (a log line starting with `<` is none).
    expect(prettyView('<a>hi</a>', '', true)).toEqual({ text: '<a>hi</a>' });
    expect(prettyView('hello {{user}}', '', true)).toEqual({ text: 'hello {{user}}' });
    // A body: its type first; text/plain read whole as XML is XML; JSON cut short under text/plain stays as it is.
    expect(prettyView('<?xml version="1.0"?><a/>', 'text/plain', true).language).toBe('xml');
    expect(prettyView('{"a":1,"b":', 'text/plain', false)).toEqual({ text: '{"a":1,"b":' });
    expect(prettyView('{"a":1,"b":', 'application/json', false)).toEqual({ text: '{\n  "a": 1,\n  "b": ', language: 'json' });
    expect(prettyView('not json', 'application/json', true)).toEqual({ text: 'not json', language: 'json' });
  });

  it('indents JSON as JSON.stringify(…, null, 2) lays it out', () => {
    for (const doc of [
      { a: 1, b: [1, 2, { c: 'x, y: [z]' }], d: {}, e: [], f: null, g: true, h: 'quote " and \\ back' },
      [],
      [[], [{}], 'a'],
      'just a string',
      42,
    ]) {
      const sent = JSON.stringify(doc);
      expect(indentJson(sent, true)).toBe(JSON.stringify(doc, null, 2));
      // Whitespace the server put in does not matter.
      expect(indentJson(JSON.stringify(doc, null, '\t'), true)).toBe(JSON.stringify(doc, null, 2));
    }
  });

  it('keeps numbers, escapes and duplicate keys as sent (JSON.parse would round a 64-bit id)', () => {
    expect(indentJson('{"id":9007199254740993,"price":1.10,"big":1E400,"name":"caf\\u00e9","id":2}', true)).toBe(
      '{\n  "id": 9007199254740993,\n  "price": 1.10,\n  "big": 1E400,\n  "name": "caf\\u00e9",\n  "id": 2\n}',
    );
  });

  it('indents a body cut short up to where it stops; malformed complete JSON is shown as sent', () => {
    expect(indentJson('[{"a":1},{"b":"unfinished str', false)).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "b": "unfinished str');
    expect(indentJson('{"a":1,}', true)).toBe('{"a":1,}');
    expect(indentJson('{"a": [1, 2', true)).toBe('{"a": [1, 2');
  });

  it('the pretty view: JSON by type or first character, a cut body indented only under a JSON type (a log starting with [ stays as is)', () => {
    expect(pretty('{"a":[1]}', 'text/plain', true)).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(pretty('[{"a":1},{"b"', 'application/json', false)).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "b"');
    expect(pretty('[INFO] started, port: 80\n[INFO] ready', 'text/plain', false)).toBe('[INFO] started, port: 80\n[INFO] ready');
    expect(pretty('[INFO] started, port: 80', 'text/plain', true)).toBe('[INFO] started, port: 80');
    expect(pretty('<a><b>1</b></a>', 'application/xml', true)).toBe('<a>\n  <b>1</b>\n</a>');
    expect(pretty('plain, text: here', 'text/plain', true)).toBe('plain, text: here');
  });

  it('XML cut short by the 512 KB limit is indented as far as it goes, the cut tag shown as it stops', () => {
    const item = (n: number) => `<item id="${n}"><name>N&amp;${n}</name><tags><tag>a</tag><tag>b</tag></tags><!-- c > d --></item>`;
    const whole = `<?xml version="1.0"?><feed>${Array.from({ length: 20_000 }, (_, n) => item(n)).join('')}</feed>`;
    expect(whole.length).toBeGreaterThan(512 * 1024);
    const shown = whole.slice(0, 512 * 1024);
    const view = pretty(shown, 'application/xml', false);
    const lines = view.split('\n');
    expect(lines.slice(0, 12)).toEqual([
      '<?xml version="1.0"?>', '<feed>', '  <item id="0">', '    <name>N&amp;0</name>', '    <tags>', '      <tag>a</tag>', '      <tag>b</tag>', '    </tags>',
      '    <!-- c > d -->', '  </item>', '  <item id="1">', '    <name>N&amp;1</name>',
    ]);
    // Only whitespace between tags changes; the text cut mid-way ends the view as sent.
    expect(view.replace(/\n\s*/g, '')).toBe(shown);
    expect(shown.endsWith(lines.at(-1)!.trim())).toBe(true);
    // Cut inside a tag, a comment, an attribute value holding `>`.
    expect(pretty('<a><b x="1>2">t</b><c attr="v', 'text/xml', false)).toBe('<a>\n  <b x="1>2">t</b>\n  <c attr="v');
    expect(pretty('<a><!-- not do', 'text/xml', false)).toBe('<a>\n  <!-- not do');
    // The whole body still goes through the parser: malformed XML read whole is shown as sent.
    expect(pretty('<a><b></a>', 'application/xml', true)).toBe('<a><b></a>');
  });

  it('indents HTML tag by tag: void elements, script/style/pre kept as sent, an unclosed <li> closed by the next and by its list', () => {
    const page = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Hi</title><style>a > b { color: red }</style></head>'
      + '<body><ul><li>one<li>two</ul><br><pre>  keep\n   this</pre><script>if (a < b) x("</div>")</script><p>end</p></body></html>';
    expect(pretty(page, 'text/html; charset=utf-8', true)).toBe([
      '<!DOCTYPE html>', '<html>', '  <head>', '    <meta charset="utf-8">', '    <title>Hi</title>', '    <style>a > b { color: red }</style>', '  </head>', '  <body>',
      '    <ul>', '      <li>', '        one', '      <li>', '        two', '    </ul>', '    <br>', '    <pre>  keep\n   this</pre>',
      '    <script>if (a < b) x("</div>")</script>', '    <p>end</p>', '  </body>', '</html>',
    ].join('\n'));
    // By its first bytes too, and cut short.
    expect(pretty('<html><body><div class="a">x</div><div cl', 'application/octet-stream', false)).toBe('<html>\n  <body>\n    <div class="a">x</div>\n    <div cl');
  });

  it('reads the charset the Content-Type names; UTF-8 otherwise, bytes that are not UTF-8 said', () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]);
    expect(charsetOf('text/plain; Charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(bodyText(latin1, 'text/plain; charset=iso-8859-1')).toEqual({ text: 'café', charset: 'windows-1252', lossy: false });
    expect(bodyText(latin1, 'text/plain')).toEqual({ text: 'caf\ufffd', charset: 'utf-8', lossy: true });
    expect(bodyText(latin1, 'text/plain; charset=no-such-set')).toEqual({ text: 'caf\ufffd', charset: 'utf-8', lossy: true });
    // A character cut by the limit is not a wrong byte.
    const utf8 = new TextEncoder().encode('aé');
    expect(bodyText(utf8, 'text/plain', 2)).toEqual({ text: 'a', charset: 'utf-8', lossy: false });
    expect(bodyText(utf8, '')).toEqual({ text: 'aé', charset: 'utf-8', lossy: false });
  });

  it('knows text types from the Content-Type', () => {
    for (const type of ['text/plain', 'text/html; charset=utf-8', 'application/json', 'application/problem+json', 'application/atom+xml', 'application/javascript', 'application/x-www-form-urlencoded', 'application/yaml']) expect(declaresText(type), type).toBe(true);
    for (const type of ['', 'application/octet-stream', 'image/png', 'application/pdf', 'application/grpc', 'application/jsonl-not']) expect(declaresText(type), type).toBe(false);
  });
});
