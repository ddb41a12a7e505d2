/**
 * Every `node bin/ferry.js …` example in the README runs as written (on a copy of the demo on a free
 * port), so the README never promises a command or flag the code lacks; so does every `ferry …`
 * example of docs/*.md that fits the demo, and the others' options are checked with --help.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from './support/cli.js';
import { demoCopy } from './support/demo.js';
import { isolatedDataDir, tempDir } from './support/temp.js';
// @ts-expect-error: a plain-JavaScript script of the example, without types
import { startPeers } from '../examples/protocols/peers.mjs';
import { parseResource, unknownFieldNotes, type ResourceKind } from '../src/model/index.js';
import { outcomeOfText } from '../src/workspace/read-resource.js';
import { openWorkspace } from '../src/workspace/index.js';
import { startWorkspaceServers } from '../src/servers/index.js';

const repo = path.join(import.meta.dirname, '..');

/** Splits a command line the way a POSIX shell would for these simple examples. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

async function readmeExamples(): Promise<string[]> {
  const readme = await fs.readFile(path.join(repo, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l.startsWith('node bin/ferry.js '));
}


describe('README examples', () => {
  it('the README shows examples to run', async () => {
    expect((await readmeExamples()).length).toBeGreaterThanOrEqual(4);
  });

  it('each example runs and succeeds', async () => {
    await isolatedDataDir();
    const { root } = await demoCopy();
    for (const line of await readmeExamples()) {
      const args = shellWords(line).slice(2).map((w) => (w === 'examples/demo' ? root : w));
      // `serve` runs until Ctrl-C; its help and the same servers under `run --start-servers` are checked instead.
      const runnable = args.includes('serve') ? [...args, '--help'] : args;
      const result = await ferry(runnable);
      expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (args.includes('json')) expect(JSON.parse(result.stdout).version).toBe(1);
    }
  });
});

/** `ferry …` lines of the sh blocks of docs/*.md (comments cut), by file. */
async function docsExamples(): Promise<Array<{ file: string; lines: string[] }>> {
  const dir = path.join(repo, 'docs');
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  const out: Array<{ file: string; lines: string[] }> = [];
  for (const file of files) {
    const text = await fs.readFile(path.join(dir, file), 'utf8');
    const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const lines = blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l.startsWith('ferry '));
    if (lines.length) out.push({ file, lines });
  }
  return out;
}

/**
 * Examples about another workspace than the demo (its requests, environments, data files, load
 * tests, documents, certificates) or that need the network: only their command and options are
 * checked, through --help.
 */
const ELSEWHERE = /Orders\/|users\.csv|staging|petstore|Petstore|collection\.json|k8s-swagger|https:\/\/[a-z0-9.]+\.(com|org)\/|checkout|part-|apiToken|\.pem|clientCertificates '\[/;
/** Commands that serve until Ctrl-C: checked through --help as well. */
const SERVING = new Set(['serve', 'app']);

describe('docs examples', () => {
  it('every `ferry` example of docs/*.md runs on the demo as written, or its options exist', async () => {
    const examples = await docsExamples();
    expect(examples.map((e) => e.file)).toEqual(expect.arrayContaining(['running.md', 'servers.md', 'import.md']));
    for (const { file, lines } of examples) {
      // A data folder of each page's own: `ferry config set` examples change settings.
      await isolatedDataDir();
      const { root } = await demoCopy();
      expect((await ferry(['-w', root, 'env', 'use', 'local'])).code).toBe(0);
      for (const line of lines) {
        const redirected = /\s>\s*\S+$/.test(line);
        const words = shellWords(line.replace(/\s>\s*\S+$/, '')).slice(1).map((w) => (w === 'examples/demo' ? root : w));
        const command = words.find((w) => !w.startsWith('-') && w !== root)!;
        const checkOnly = ELSEWHERE.test(line) || SERVING.has(command);
        const args = checkOnly ? [...words, '--help'] : command === 'run' && !words.includes('--start-servers') ? [...words, '--start-servers'] : words;
        const result = await ferry(args, root);
        expect(result.code, `docs/${file}: ${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
        if (redirected && !checkOnly) expect(JSON.parse(result.stdout).version, `docs/${file}: ${line}`).toBe(1);
      }
    }
  }, 120_000);
});

/** The commands (and subcommands) `ferry --help` lists, as argument lists. */
async function commandPaths(prefix: string[] = []): Promise<string[][]> {
  const help = (await ferry([...prefix, '--help'])).stdout;
  const section = help.split(/\nCommands:\n/)[1]?.split(/\n\n/)[0] ?? '';
  const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
  const out: string[][] = [];
  for (const name of names) {
    out.push([...prefix, name]);
    if (prefix.length === 0) out.push(...(await commandPaths([name])));
  }
  return out;
}

describe('--help and the docs', () => {
  it("every option of every command's --help is described in the README or docs/*.md", async () => {
    const docs = [await fs.readFile(path.join(repo, 'README.md'), 'utf8')];
    for (const file of (await fs.readdir(path.join(repo, 'docs'))).filter((f) => f.endsWith('.md'))) docs.push(await fs.readFile(path.join(repo, 'docs', file), 'utf8'));
    const text = docs.join('\n');
    const commands = await commandPaths();
    expect(commands.map((c) => c.join(' '))).toEqual(expect.arrayContaining(['run', 'mcp', 'env use', 'load merge']));
    const missing: string[] = [];
    for (const command of commands) {
      const help = (await ferry([...command, '--help'])).stdout;
      const options = [...help.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((o) => o !== '--help');
      for (const option of options) if (!new RegExp(`${option}(?![a-z-])`).test(text)) missing.push(`ferry ${command.join(' ')} ${option}`);
    }
    expect(missing).toEqual([]);
  }, 60_000);
});

describe('options named in the prose', () => {
  it("every option of a `ferry …` command written in the README's or docs' text is one its --help lists", async () => {
    const files = ['README.md', ...(await fs.readdir(path.join(repo, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const commands = new Set((await commandPaths()).map((c) => c.join(' ')));
    const helps = new Map<string, Set<string>>();
    const optionsOf = async (command: string): Promise<Set<string>> => {
      let known = helps.get(command);
      if (!known) {
        const help = (await ferry([...command.split(' ').filter(Boolean), '--help'])).stdout;
        known = new Set([...help.matchAll(/^ {2}(?:(-[a-zA-Z]), )?(--[a-z][a-z-]*)/gm)].flatMap((m) => [m[1], m[2]].filter((o): o is string => o !== undefined)));
        helps.set(command, known);
      }
      return known;
    };
    const global = await optionsOf('');
    const unknown: string[] = [];
    let checked = 0;
    for (const file of files) {
      // Inline code only: the sh blocks' lines are run (or checked) by the tests above.
      const prose = (await fs.readFile(path.join(repo, file), 'utf8')).replace(/```[\s\S]*?```/g, '');
      for (const [, span] of prose.matchAll(/`(?:npx )?ferry ([^`]+)`/g)) {
        const words = shellWords(span!);
        let at = 0;
        while (words[at] === '-w' || words[at] === '--workspace') at += 2;
        const withSub = words.slice(at, at + 2).join(' ');
        const command = commands.has(withSub) ? withSub : (words[at] ?? '');
        if (!commands.has(command)) continue;
        const known = await optionsOf(command);
        // After `--` every word is an argument (`ferry run -- -rf`), as commander reads it.
        const end = words.indexOf('--');
        for (const word of end === -1 ? words : words.slice(0, end)) {
          const option = /^(--?[a-zA-Z][a-zA-Z0-9-]*)/.exec(word)?.[1];
          if (!option || /^-\d/.test(word)) continue;
          checked++;
          if (!known.has(option) && !global.has(option)) unknown.push(`${file}: \`ferry ${span}\`: ${option}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(unknown).toEqual([]);
  }, 60_000);
});

describe('streaming examples of docs/running.md', () => {
  it('the WebSocket and Socket.IO request examples pass their own tests against the peers of examples/protocols', async () => {
    await isolatedDataDir();
    const peers = await startPeers({ ws: 0, socketio: 0, mqtt: 0 });
    try {
      const root = path.join(await tempDir(), 'docs-examples');
      await fs.mkdir(path.join(root, 'requests'), { recursive: true });
      await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nname: Docs examples\n');
      const blocks = (await docsYamlBlocks()).filter((b) => b.where.startsWith('docs/running.md:') && /^name: (Chat|Sum)$/m.test(b.text));
      expect(blocks.length).toBe(2);
      for (const [i, block] of blocks.entries()) await fs.writeFile(path.join(root, 'requests', `example-${i}.yaml`), block.text);
      const { ws, socketio } = peers.ports;
      // The variables the examples name; the peers' own: a greeting then an echo, the /math namespace with its token.
      const vars = [`wsUrl=ws://127.0.0.1:${ws}`, 'sensor=kitchen', `socketioUrl=http://127.0.0.1:${socketio}`, 'token=demo-token'].flatMap((v) => ['--var', v]);
      const result = await ferry(['-w', root, 'run', ...vars, '-r', 'json']);
      const report = JSON.parse(result.stdout);
      expect(report.results.map((r: { name: string; error: string | null; tests: Array<{ passed: boolean }> }) => [r.name, r.error, r.tests.length > 0 && r.tests.every((t) => t.passed)])).toEqual([
        ['Chat', null, true],
        ['Sum', null, true],
      ]);
      expect(result.code).toBe(0);
    } finally {
      await peers.close();
    }
  }, 30_000);
});

describe('server examples of docs/servers.md', () => {
  it('each starts as written (on free ports), and the DNS request example of docs/running.md gets its answer from the DNS server example', async () => {
    await isolatedDataDir();
    const root = path.join(await tempDir(), 'docs-servers');
    await fs.mkdir(path.join(root, 'servers'), { recursive: true });
    await fs.mkdir(path.join(root, 'requests'), { recursive: true });
    await fs.mkdir(path.join(root, 'specs'), { recursive: true });
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nname: Docs servers\n');
    // The document the OpenAPI-linked mock names (specs/petstore.yaml), from the corpus.
    await fs.copyFile(path.join(repo, 'test', 'fixtures', 'corpus', 'openapi', 'oas30-petstore.yaml'), path.join(root, 'specs', 'petstore.yaml'));
    const servers = (await docsYamlBlocks()).filter((b) => b.kind === 'server' && b.where.startsWith('docs/servers.md:'));
    expect(servers.length).toBeGreaterThanOrEqual(9);
    for (const server of servers) {
      // Fixed ports (4010, 4011) could be taken on this machine: any free one instead.
      await fs.writeFile(path.join(root, server.file), server.text.replace(/^port: \d+/m, 'port: 0'));
    }
    const handle = await startWorkspaceServers(await openWorkspace(root), { vars: { realApi: 'http://127.0.0.1:9', stage: 'docs' }, watch: false });
    try {
      expect(handle.failures).toEqual([]);
      expect(handle.servers.map((s) => s.id).sort()).toEqual(servers.map((s) => path.basename(s.file, '.yaml')).sort());
      const names = handle.servers.find((s) => s.kind === 'dns')!;
      const dns = (await docsYamlBlocks()).find((b) => b.where.startsWith('docs/running.md:') && /^kind: dns$/m.test(b.text))!;
      await fs.writeFile(path.join(root, 'requests', 'dns.yaml'), dns.text.replace('127.0.0.1:1053', `127.0.0.1:${names.port}`));
      const result = await ferry(['-w', root, 'run', 'dns.yaml', '--var', 'zone=example.test', '-r', 'json']);
      const report = JSON.parse(result.stdout);
      expect(report.results[0]).toMatchObject({ name: 'Api address', error: null, passed: true, tests: [{ passed: true }] });
    } finally {
      await handle.stop();
    }
  }, 30_000);
});

describe('source paths in the docs', () => {
  it('every src/ and test/ file the README and docs/*.md name exists', async () => {
    const files = ['README.md', ...(await fs.readdir(path.join(repo, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const missing: string[] = [];
    for (const file of files) {
      const text = await fs.readFile(path.join(repo, file), 'utf8');
      for (const [named] of text.matchAll(/\b(?:src|test)\/[A-Za-z0-9_./-]*\.(?:tsx?|mjs|js)\b/g)) {
        // An import in a code example names `.js` for its `.ts` source, as ESM TypeScript does.
        const candidates = named.endsWith('.js') ? [named, named.replace(/\.js$/, '.ts')] : [named];
        let exists = false;
        for (const candidate of candidates) exists ||= await fs.access(path.join(repo, candidate)).then(() => true, () => false);
        if (!exists) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("the README's set-up", () => {
  it("names the Node.js version package.json's engines asks for", async () => {
    const readme = await fs.readFile(path.join(repo, 'README.md'), 'utf8');
    const engines = JSON.parse(await fs.readFile(path.join(repo, 'package.json'), 'utf8')).engines.node as string;
    const least = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engines)?.[1];
    expect(least, engines).toBeDefined();
    expect(readme.split('## Set up')[1]!.split('\n## ')[0]).toContain(`Node.js ${least} or newer`);
  });
});

describe("the README's documentation list", () => {
  it('links every page of docs/', async () => {
    const readme = await fs.readFile(path.join(repo, 'README.md'), 'utf8');
    const list = readme.split('## Documentation')[1]!.split('\n## ')[0]!;
    const pages = (await fs.readdir(path.join(repo, 'docs'))).filter((f) => f.endsWith('.md'));
    expect(pages.filter((page) => !list.includes(`(docs/${page})`))).toEqual([]);
  });
});

/**
 * Every ```yaml block of the README and docs/*.md that shows a Ferry file, with where it came
 * from. A block's first line `# <path>` names the file (`requests/…/_folder.yaml`, `requests/…`,
 * `servers/…`, `loadtests/…`, `environments/…`, `ferry.yaml`); a block without one is a request.
 * A block of another program's format (a Kubernetes Job) is left out.
 */
async function docsYamlBlocks(): Promise<Array<{ where: string; file: string; kind: ResourceKind; text: string }>> {
  const files = ['README.md', ...(await fs.readdir(path.join(repo, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const out: Array<{ where: string; file: string; kind: ResourceKind; text: string }> = [];
  for (const file of files) {
    const doc = await fs.readFile(path.join(repo, file), 'utf8');
    for (const match of doc.matchAll(/```yaml\n([\s\S]*?)```/g)) {
      const text = match[1]!;
      if (/^apiVersion: /m.test(text)) continue;
      const where = `${file}:${doc.slice(0, match.index).split('\n').length}`;
      const named = /^# (\S.*?\.yaml)\b/.exec(text)?.[1] ?? 'requests/Example.yaml';
      const kind: ResourceKind = named === 'ferry.yaml' ? 'workspace'
        : named.endsWith('/_folder.yaml') ? 'folder'
        : named.startsWith('requests/') ? 'request'
        : named.startsWith('servers/') ? 'server'
        : named.startsWith('loadtests/') ? 'loadtest'
        : named.startsWith('environments/') ? 'environment'
        : (() => { throw new Error(`${where}: ${named} is no file of the workspace`); })();
      out.push({ where, file: named, kind, text });
    }
  }
  return out;
}

describe('YAML examples of the docs', () => {
  it('each reads as the file it shows, with no problem and no field the format lacks', async () => {
    const blocks = await docsYamlBlocks();
    expect(blocks.map((b) => b.kind)).toEqual(expect.arrayContaining(['request', 'folder', 'server', 'loadtest']));
    const problems: string[] = [];
    for (const { where, file, kind, text } of blocks) {
      const read = outcomeOfText(kind, text, file, (data) => parseResource(kind, data));
      if (!read.ok) problems.push(`${where} (${file}): ${read.warning.line ?? 1}:${read.warning.column ?? 1}: ${read.warning.problems?.join('; ') ?? read.warning.message}`);
      else if (read.warning) problems.push(`${where} (${file}): ${read.warning.message}`);
      else {
        const unknown = unknownFieldNotes(kind, read.value);
        if (unknown.length) problems.push(`${where} (${file}): not in the format: ${unknown.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
