/**
 * `ferry run`'s Failures list gives a failed test's whole message: pm's jsonSchema puts its errors
 * on the line after 'found following errors: ', which alone said nothing. The reports keep it too.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { makeWorkspace } from './workspace.js';

let site: Listening;
beforeAll(async () => {
  site = await listenLoopback(http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"seven"}')), 'http');
});
afterAll(() => site.close());

const schemaTest = "pm.test('id is a number', () => pm.response.to.have.jsonSchema({ type: 'object', properties: { id: { type: 'integer' } } }));";

describe("ferry run's Failures list", () => {
  it("shows a jsonSchema failure's errors, not only its first line; the JSON, JUnit and HTML reports keep the whole message", async () => {
    await isolatedDataDir();
    const temp = await makeWorkspace({ 'requests/pet.yaml': { name: 'pet', url: `${site.url}/pet`, scripts: { postResponse: schemaTest } } });
    const out = await tempDir();
    const files = { json: path.join(out, 'r.json'), junit: path.join(out, 'r.xml'), html: path.join(out, 'r.html') };
    try {
      const run = await ferry(['run', '-r', 'cli', '--out-json', files.json, '--out-junit', files.junit, '--out-html', files.html], temp.root);
      expect(run.code, run.stderr).toBe(1);
      const listed = run.stdout.slice(run.stdout.indexOf('\nFailures\n'));
      expect(listed).toMatch(/\n {2}1\. pet\.yaml\n {5}id is a number: expected data to satisfy schema but found following errors: *\n {7}\S[^\n]*id[^\n]*integer/);
      const message = JSON.parse(await fs.readFile(files.json, 'utf8')).results[0].tests[0].message as string;
      expect(message).toMatch(/^expected data to satisfy schema but found following errors: *\n\S.*id.*integer/);
      const errorsLine = message.split('\n')[1]!;
      expect(listed).toContain(`\n       ${errorsLine}\n`);
      expect(await fs.readFile(files.junit, 'utf8')).toContain(`found following errors: &#10;${errorsLine.replaceAll('"', '&quot;')}`);
      expect(await fs.readFile(files.html, 'utf8')).toContain(JSON.stringify(message).slice(1, -1));
    } finally {
      await temp.cleanup();
    }
  });
});
