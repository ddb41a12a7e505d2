/**
 * JUnit names as CI systems show them in their web pages: a request, folder, file and test named
 * with a bidi override (U+202E) and a C1 control (U+009B) come out escaped (`\u202e`), as the HTML
 * report shows them, so `\u202Elmay.exe` cannot read as `exe.yaml`; failure messages keep their
 * text as it came. A real run against a server on 127.0.0.1; the file is parsed as XML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ferry } from '../support/cli.js';
import { makeWorkspace } from './workspace.js';

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface JunitCase {
  name: string;
  classname: string;
  failure?: { message: string };
}

describe('JUnit names', () => {
  it('control characters and bidi overrides in suite, case and class names are escaped as in the HTML report; messages keep their text', async () => {
    const t = await makeWorkspace({
      'requests/\u202eredlof/_folder.yaml': { name: 'Folder \u202eevil' },
      'requests/\u202eredlof/\u202elmay.exe.yaml': {
        name: 'Get \u202elmay.exe \u009b2J',
        url: `${base}/`,
        scripts: {
          postResponse: [
            "pm.test('passes \\u202eexe.yaml \\u009b', () => {});",
            "pm.test('fails', () => { throw new Error('got \\u202eabc \\u009b'); });",
          ].join('\n'),
        },
      },
      'requests/plain.yaml': { name: 'Plain \u009b', url: `${base}/` },
    }, { name: 'Work \u2066space' });
    process.env.FERRY_DATA_DIR = t.dataDir;
    const junitFile = path.join(t.root, '..', 'r.xml');
    const run = await ferry(['-w', t.root, 'run', '-r', 'json', '--out-junit', junitFile]);
    expect(run.code, run.stderr).toBe(1);
    // The run read the names as written: the JSON report keeps them as they came.
    const json = JSON.parse(run.stdout) as { results: Array<{ name: string; tests: Array<{ name: string }> }> };
    expect(json.results.map((r) => r.name).sort()).toEqual(['Get \u202elmay.exe \u009b2J', 'Plain \u009b']);

    const xml = await fs.readFile(junitFile, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml) as {
      testsuites: { name: string; testsuite: Array<{ name: string; package: string; testcase: JunitCase[] }> };
    };
    expect(parsed.testsuites.name).toBe('Work \\u2066space');
    const suites = parsed.testsuites.testsuite;
    expect(suites.map((s) => s.name).sort()).toEqual(['Folder \\u202eevil', 'Work \\u2066space']);
    expect(suites.map((s) => s.package).sort()).toEqual(['Folder \\u202eevil', 'Work \\u2066space']);
    const cases = suites.flatMap((s) => s.testcase);
    expect(cases.map((c) => [c.name, c.classname])).toEqual(
      expect.arrayContaining([
        ['Get \\u202elmay.exe \\u009b2J - passes \\u202eexe.yaml \\u009b', '\\u202eredlof.\\u202elmay.exe'],
        ['Get \\u202elmay.exe \\u009b2J - fails', '\\u202eredlof.\\u202elmay.exe'],
        ['Plain \\u009b - status 200 OK', 'plain'],
      ]),
    );
    expect(cases).toHaveLength(3);
    // No name holds a raw override or C1 control; a failure message keeps what the script compared.
    expect(xml).not.toMatch(/name="[^"]*[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(cases.find((c) => c.name.endsWith(' - fails'))?.failure?.message).toBe('got \u202eabc \u009b');
  });
});
