/**
 * One top-level block of a YAML file as text of its own (the app's server editor): read with its
 * comments, written back in place as typed, and left alone where it is not a block.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sectionSource, withSectionSource } from '../../src/workspace/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** YAML files to round-trip: the corpus's OpenAPI documents (those under 1 MB) and the demo's servers. */
function realFiles(): string[] {
  const openapi = path.join(REPO, 'test/fixtures/corpus/openapi');
  const documents = readdirSync(openapi).filter((n) => /\.ya?ml$/.test(n)).map((n) => path.join(openapi, n)).filter((f) => statSync(f).size < 1024 * 1024);
  const dir = path.join(REPO, 'examples/demo/servers');
  const servers = readdirSync(dir).filter((n) => n.endsWith('.yaml')).map((n) => path.join(dir, n));
  return [...documents, ...servers];
}

const FILE = `# top comment
name: Chat
http: # the mock's routes
  # first route
  routes:
    - name: a # trailing
      body: |
        line1
        line2

# between sections
websocket:
    mode: manual   # four-space indentation
    greeting: hi
# after
port: 3001
`;

describe('sectionSource', () => {
  it('gives the block unindented, with its comments and layout, up to its last value', () => {
    expect(sectionSource(FILE, 'http')).toBe('# first route\nroutes:\n  - name: a # trailing\n    body: |\n      line1\n      line2\n');
    expect(sectionSource(FILE, 'websocket')).toBe('mode: manual   # four-space indentation\ngreeting: hi\n');
  });

  it('is undefined for a key that is not a block map, a missing key, a flow map and a file that does not parse', () => {
    expect(sectionSource(FILE, 'name')).toBeUndefined();
    expect(sectionSource(FILE, 'socket')).toBeUndefined();
    expect(sectionSource('http: {routes: []}\n', 'http')).toBeUndefined();
    expect(sectionSource('http:\n  routes: [unclosed\n', 'http')).toBeUndefined();
    expect(sectionSource('- a\n- b\n', 'http')).toBeUndefined();
  });
});

describe('withSectionSource', () => {
  it('puts back what sectionSource gave without changing a byte', () => {
    for (const key of ['http', 'websocket']) expect(withSectionSource(FILE, key, sectionSource(FILE, key)!)).toBe(FILE);
    const last = 'name: x\nhttp:\n  cors: true'; // the last line without a line break
    expect(withSectionSource(last, 'http', sectionSource(last, 'http')!)).toBe(last);
  });

  it('writes typed text in place of the block, indented as the block was, comments included', () => {
    expect(withSectionSource(FILE, 'websocket', '# typed\nmode: echo\n\n# end\n')).toBe(FILE.replace('    mode: manual   # four-space indentation\n    greeting: hi\n', '    # typed\n    mode: echo\n\n    # end\n'));
  });

  it('keeps a CRLF file CRLF throughout', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const out = withSectionSource(crlf, 'websocket', 'mode: echo\n# x\n')!;
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('websocket:\r\n    mode: echo\r\n    # x\r\n# after\r\n');
  });

  it('refuses what cannot stand in a block: document markers, directives, nothing at all; and files without the block', () => {
    expect(withSectionSource(FILE, 'websocket', 'mode: echo\n---\nport: 1\n')).toBeUndefined();
    expect(withSectionSource(FILE, 'websocket', '%YAML 1.2\nmode: echo\n')).toBeUndefined();
    expect(withSectionSource(FILE, 'websocket', '  \n\n')).toBeUndefined();
    expect(withSectionSource('http: {cors: true}\n', 'http', 'cors: false\n')).toBeUndefined();
    expect(withSectionSource(FILE, 'proxy', 'target: a:1\n')).toBeUndefined();
  });

  it('keeps a block scalar line that is a tab after the indentation', () => {
    const file = 'doc:\n  text: |-\n    \t\n    after a tab line\nname: x\n';
    expect(sectionSource(file, 'doc')).toBe('text: |-\n  \t\n  after a tab line\n');
    expect(withSectionSource(file, 'doc', sectionSource(file, 'doc')!)).toBe(file);
  });

  // CPU-bound, not waiting on anything: each block parses its document twice, and two documents
  // (Adyen's 437 KB, Spotify's 286 KB) take ~13 s alone; a full run on two shared cores took 40 s,
  // past the 30 s default, so the test has a limit of its own.
  it("gives back every block of real files byte for byte (corpus OpenAPI documents, the demo's servers)", { timeout: 120_000 }, () => {
    let blocks = 0;
    for (const file of realFiles()) {
      const source = readFileSync(file, 'utf8');
      for (const key of Object.keys(parse(source) as Record<string, unknown>)) {
        const section = sectionSource(source, key);
        if (section === undefined) continue;
        blocks++;
        expect(withSectionSource(source, key, section), `${path.relative(REPO, file)}: ${key}`).toBe(source);
      }
    }
    expect(blocks).toBeGreaterThan(50);
  });

  it('handles a large block', () => {
    const routes = Array.from({ length: 5000 }, (_, i) => `  - name: route ${i} # comment ${i}\n    path: /r/${i}\n`).join('');
    const file = `name: Big\nhttp:\n  routes:\n${routes}port: 1\n`;
    const section = sectionSource(file, 'http')!;
    expect(section.split('\n')).toHaveLength(10_002);
    expect(withSectionSource(file, 'http', section)).toBe(file);
  });
});
