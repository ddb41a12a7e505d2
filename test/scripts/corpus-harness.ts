/**
 * The harness of the corpus runs: a Postman export of the shared corpus through `ferry init`,
 * `ferry import`, the imported URLs pointed at local stand-in servers through the workspace API,
 * then `ferry run -r cli,json,junit`; the three reports are read back and checked to agree test
 * by test. Used by corpus-run.test.ts and corpus-run-more.test.ts.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { expect } from 'vitest';
import { openWorkspace, saveRequest, walkRequests } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import type { EchoServer } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { CORPUS } from '../support/corpus.js';

export const corpus = path.join(CORPUS, 'postman');

/** Where the collections' hosts go: `[host as written in the URLs, local host:port]`, and the servers whose traffic is collected. */
export interface StandIns {
  hosts: [string, string][];
  servers: Pick<EchoServer, 'seen'>[];
}

// ---- the reports of one run ------------------------------------------------------------------
export interface JsonTest { name: string; passed: boolean; skipped?: boolean; message: string | null }
export interface JsonResult { path: string; name: string; url: string; status: number | null; error: string | null; passed: boolean; tests: JsonTest[]; console: string[] }
export interface JsonReport { summary: { requests: number; failedRequests: number; tests: number; failedTests: number }; results: JsonResult[] }
export interface JunitCase { name: string; classname: string; failure?: { message: string }; error?: { message: string }; skipped?: { message: string } }

export interface CorpusRun {
  code: number;
  stdout: string;
  importNotes: string[];
  json: JsonReport;
  junit: JunitCase[];
  /** What the local servers received during the run: method and request target. */
  served: { method: string; target: string }[];
  /** The one result of this name; `Folder/name` picks by path where names repeat. */
  byName(name: string): JsonResult;
}

/** Points every imported request at the local servers: read and saved through the workspace API. */
async function pointAtLocalServers(root: string, hosts: [string, string][]): Promise<void> {
  const ws = await openWorkspace(root);
  expect(ws.warnings).toEqual([]);
  for (const { node } of walkRequests(ws.tree)) {
    let url = node.request.url;
    for (const [host, local] of hosts) url = url.split(host).join(local);
    if (url !== node.request.url) await saveRequest(root, node.path, { ...node.request, url });
  }
}

export async function runCorpus(collection: string, standIns: StandIns, extraArgs: string[] = []): Promise<CorpusRun> {
  await isolatedDataDir();
  const root = await tempDir('ferry-corpus-');
  expect((await ferry(['init', root, '--name', 'Corpus'])).code).toBe(0);
  const imported = await ferry(['-w', root, 'import', path.join(corpus, `${collection}.postman_collection.json`), '--json']);
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
  await pointAtLocalServers(root, standIns.hosts);

  const seenBefore = standIns.servers.map((server) => server.seen.length);
  const jsonFile = path.join(root, 'out', 'report.json');
  const junitFile = path.join(root, 'out', 'report.xml');
  const run = await ferry(['-w', root, 'run', '-k', '--timeout-ms', '5000', '-r', 'cli,json,junit', '--out-json', jsonFile, '--out-junit', junitFile, ...extraArgs]);
  expect(run.stderr).toBe('');
  const json = JSON.parse(await fs.readFile(jsonFile, 'utf8')) as JsonReport;
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) })
    .parse(await fs.readFile(junitFile, 'utf8')) as { testsuites: { testsuite: { testcase?: JunitCase[] }[] } };
  const junit = xml.testsuites.testsuite.flatMap((s) => s.testcase ?? []);
  // A run of nothing would agree with everything below.
  expect(json.results.length, 'requests run').toBeGreaterThan(0);
  // Nothing left loopback: no request of any run tried to resolve a name or reach a closed port.
  for (const r of json.results) expect(r.error ?? '').not.toMatch(/unknown host|connection refused/);
  expectReportsAgree(run.stdout, json, junit);
  return {
    code: run.code,
    stdout: run.stdout,
    importNotes: (JSON.parse(imported.stdout) as { notes: string[] }).notes,
    json,
    junit,
    served: standIns.servers.flatMap((server, i) => server.seen.slice(seenBefore[i])),
    byName(name) {
      const found = json.results.filter((r) => (name.includes('/') && !name.startsWith('/') ? r.path.endsWith(`/${name}.yaml`) : r.name === name));
      expect(found, `one result named ${name}`).toHaveLength(1);
      return found[0]!;
    },
  };
}

/** Every test of the JSON report shows, by its own name and with the same verdict, in the cli and JUnit reports. */
export function expectReportsAgree(stdout: string, json: JsonReport, junit: JunitCase[]): void {
  for (const r of json.results) {
    const classname = r.path.replace(/\.yaml$/i, '').replace(/\//g, '.');
    for (const t of r.tests) {
      const cliLine = t.skipped ? `    - ${t.name} (skipped)\n` : `    ${t.passed ? '✓' : '✗'} ${t.name}\n`;
      expect(stdout, `cli line for ${r.name} / ${t.name}`).toContain(cliLine);
      const cases = junit.filter((c) => c.classname === classname && c.name === `${r.name} - ${t.name}`);
      expect(cases, `JUnit testcase for ${r.name} / ${t.name}`).toHaveLength(1);
      const c = cases[0]!;
      expect(Boolean(c.skipped), `JUnit skipped for ${t.name}`).toBe(Boolean(t.skipped));
      expect(Boolean(c.failure), `JUnit failure for ${t.name}`).toBe(!t.passed && !t.skipped);
      if (t.message) expect(c.failure?.message).toBe(t.message);
    }
    if (r.error) {
      expect(stdout).toContain(`error: ${r.error.split('\n')[0]}`);
      expect(junit.find((c) => c.classname === classname && c.name === r.name)?.error?.message).toBe(r.error);
    }
  }
}

export const verdicts = (r: JsonResult) => r.tests.map((t) => [t.name, t.skipped ? 'skipped' : t.passed]);
