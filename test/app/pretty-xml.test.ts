/** The response viewer's pretty XML: indented, content kept, malformed or hostile input shown raw. */
import { describe, expect, it } from 'vitest';
import { looksLikeXml, prettyXml } from '../../src/app/web/pretty-xml.js';

describe('pretty XML', () => {
  it('indents elements and keeps attributes, comments, entities, CDATA and the declaration', () => {
    const out = prettyXml('<?xml version="1.0" encoding="UTF-8"?><a x="1" y="&amp;"><!-- note --><b>t &lt; u</b><c/><d><![CDATA[<raw>]]></d></a>');
    expect(out).toBeDefined();
    const lines = out!.split('\n');
    expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(lines[1]).toBe('<a x="1" y="&amp;">');
    expect(lines).toContain('  <!-- note -->');
    expect(lines).toContain('  <b>t &lt; u</b>');
    expect(lines).toContain('  <c/>');
    expect(out).toContain('<![CDATA[<raw>]]>');
    expect(lines.at(-1)).toBe('</a>');
  });

  it('keeps namespaces and nests deeper levels further in', () => {
    const out = prettyXml('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><r><v>1</v></r></s:Body></s:Envelope>')!;
    expect(out.split('\n')).toEqual([
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">',
      '  <s:Body>',
      '    <r>',
      '      <v>1</v>',
      '    </r>',
      '  </s:Body>',
      '</s:Envelope>',
    ]);
  });

  it('gives up (the viewer shows the raw text) on malformed XML', () => {
    for (const bad of ['<a><b></a>', '<a/><b/>', 'not xml', '<a x="1></a>', '', '<?xml version="1.0"?>']) expect(prettyXml(bad), bad).toBeUndefined();
  });

  it('does not expand entities (no billion laughs)', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;&c;&c;</l>';
    const out = prettyXml(bomb);
    // Either shown raw or re-indented as written, never expanded.
    expect((out ?? bomb).length).toBeLessThan(bomb.length * 2);
  });

  // Its time is a target of bench/app-text.ts.
  it('re-indents a large document in full', () => {
    const big = `<list>${'<item id="1"><name>x</name></item>'.repeat(20_000)}</list>`;
    const out = prettyXml(big)!;
    expect(out.split('\n')).toHaveLength(2 + 20_000 * 3);
  });

  it('knows XML by content type or declaration', () => {
    expect(looksLikeXml('<a/>', 'application/xml')).toBe(true);
    expect(looksLikeXml('<a/>', 'text/xml; charset=utf-8')).toBe(true);
    expect(looksLikeXml('<feed/>', 'application/atom+xml')).toBe(true);
    expect(looksLikeXml('<?xml version="1.0"?><a/>', 'application/octet-stream')).toBe(true);
    expect(looksLikeXml('<html></html>', 'text/html')).toBe(false);
    expect(looksLikeXml('{"a":1}', 'application/json')).toBe(false);
  });
});
