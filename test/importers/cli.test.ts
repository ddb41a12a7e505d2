/** `ferry import`: files, URLs over real loopback HTTP, --curl, --into, --name, --json. */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry, ferryOnTerminal, initedWorkspace } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { CORPUS } from '../support/corpus.js';
import { freePort, startHttpProxy, type TestProxy } from '../support/servers/index.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';

let server: Listening;
let base: string;

beforeAll(async () => {
  server = await listenLoopback(http.createServer((req, res) => {
    if (req.url === '/env.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: 'Remote', values: [{ key: 'a', value: '1' }], _postman_variable_scope: 'environment' }));
    } else if (req.url === '/exports/Team%20QA.postman_environment.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ values: [{ key: 'a', value: '1' }], _postman_variable_scope: 'environment' }));
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/env.json' }).end();
    } else if (req.url === '/huge') {
      // Claims nothing about its size and streams past 50 MB: refused while it arrives.
      res.setHeader('content-type', 'application/json');
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 60 && res.write(chunk)) sent++;
        if (sent < 60) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => {});
      pump();
    } else res.writeHead(404).end();
  }), 'http');
  base = server.url;
});
afterAll(() => server.close());

describe('ferry import', () => {
  it('imports a collection file and prints the counts and notes', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v21-pm-sendrequest.postman_collection.json')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported .+: \d+ requests?, \d+ folders?, 0 environments, \d+ workspace variables?/);
    expect(result.stdout).toMatch(/Notes:\n  - .*sendRequest/);
    expect(result.stdout).toMatch(/^Wrote requests\/.+$/m);
    // A second import of the same file lands beside the first, and says where.
    const again = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v21-pm-sendrequest.postman_collection.json')]);
    expect(again.stdout).toMatch(/^Wrote requests\/.+ 2$/m);
  });

  it('on a terminal, a status line says what a long import is doing and is gone before the summary', async () => {
    const { ws } = await initedWorkspace();
    // 400 requests, so there is something to count.
    const collection = {
      info: { name: 'Many', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: Array.from({ length: 400 }, (_, i) => ({ name: `r${i}`, request: { method: 'GET', url: `http://127.0.0.1/${i}` } })),
    };
    const file = path.join(await tempDir(), 'many.json');
    await fs.writeFile(file, JSON.stringify(collection));
    const result = await ferryOnTerminal(['-w', ws, 'import', file]);
    expect(result.code).toBe(0);
    const CLEAR = '\r\u001b[2K';
    expect(result.status[0]).toBe(`${CLEAR}→ Reading ${file}`);
    expect(result.status).toContain(`${CLEAR}→ Writing files: 0 of 400`);
    expect(result.status).toContain(`${CLEAR}→ Writing files: 400 of 400`);
    // Erased at the end, and nothing of it reaches stdout or the ordinary stderr.
    expect(result.status.at(-1)).toBe(CLEAR);
    expect(result.stdout).toMatch(/^Imported "Many": 400 requests/);
    expect(result.stderr).toBe('');
    // Without a terminal (the ordinary capture) nothing is drawn.
    expect((await ferry(['-w', ws, 'import', file])).stderr).toBe('');
  });

  it('--json prints the summary shape; --into and --name place and name it', async () => {
    const { ws } = await initedWorkspace();
    await fs.mkdir(path.join(ws, 'requests', 'Team'));
    const result = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v20-multi-level-folders.postman_collection.json'), '--into', 'Team', '--name', 'Mine', '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(Object.keys(summary)).toEqual(['kind', 'name', 'requests', 'folders', 'environments', 'variables', 'notes']);
    expect(summary).toMatchObject({ kind: 'postman', name: 'Mine', environments: 0 });
    expect(summary.requests).toBeGreaterThan(0);
    expect(await fs.readdir(path.join(ws, 'requests', 'Team'))).toEqual(['Mine']);
  });

  it('--into takes an existing folder, as --help says: a missing one is refused and nothing is written', async () => {
    // The help's example (`--into APIs`) read as if the folder were made; the import refused it.
    const help = await ferry(['import', '--help']);
    expect(help.stdout).toContain('--into <folder>   an existing folder under requests/ to import into');
    expect(help.stdout).toContain('into the existing folder requests/APIs');
    const { ws } = await initedWorkspace();
    const before = await fs.readdir(ws, { recursive: true });
    const result = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v20-multi-level-folders.postman_collection.json'), '--into', 'APIs']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('The folder "APIs" does not exist under requests/. Create it first or leave out --into.');
    expect(await fs.readdir(ws, { recursive: true })).toEqual(before);
  });

  it('a request or folder named like an option (`-rf`, `--help`) gets a file name that does not start with -: `ferry run` and shell globs take it as a path', async () => {
    const { ws } = await initedWorkspace();
    const collection = path.join(path.dirname(ws), 'dash.postman_collection.json');
    await fs.writeFile(collection, JSON.stringify({
      info: { name: 'Dash', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: '--help', item: [{ name: '-rf', request: { method: 'GET', url: 'http://127.0.0.1:9/' } }] }],
    }));
    expect((await ferry(['import', collection], ws)).code).toBe(0);
    expect(await fs.readdir(path.join(ws, 'requests', 'Dash'))).toContain('_--help');
    // The folder's display name is kept in its _folder.yaml.
    expect((await fs.readdir(path.join(ws, 'requests', 'Dash', '_--help'))).sort()).toEqual(['_-rf.yaml', '_folder.yaml']);
    // The display names are kept; the paths work as they are typed.
    const run = await ferry(['run', 'Dash/_--help/_-rf', '-r', 'json', '--timeout-ms', '2000'], ws);
    expect(JSON.parse(run.stdout).results.map((r: { name: string; path: string }) => [r.name, r.path])).toEqual([['-rf', 'Dash/_--help/_-rf.yaml']]);
  });

  it('--into outside requests/ (absolute, or with ..) is refused, saying so, and nothing is written', async () => {
    const { ws } = await initedWorkspace();
    const before = await fs.readdir(path.join(ws, 'requests'));
    for (const into of ['../outside', '/tmp/abs', 'A/../../B']) {
      const result = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v20-multi-level-folders.postman_collection.json'), '--into', into]);
      expect(result.code, into).toBe(2);
      expect(result.stderr).toContain(`Cannot import into "${into}": give a folder under requests/ as a path inside it (such as APIs/Billing), not an absolute path or one with "..".`);
    }
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual(before);
  });

  it('downloads over HTTP, following redirects', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', `${base}/moved`, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'environment', name: 'Remote', environments: 1 });
    expect(await fs.readdir(path.join(ws, 'environments'))).toEqual(['Remote.yaml']);
  });

  it('an environment export without a name is named after its file or download', async () => {
    const { ws } = await initedWorkspace();
    const file = await ferry(['-w', ws, 'import', path.join(CORPUS, 'environments/env-missing-name.postman_environment.json')]);
    expect(file.stdout).toMatch(/^Imported "env-missing-name": 0 requests, 0 folders, 1 environment, 0 workspace variables$/m);
    expect(file.stdout).toMatch(/^Wrote environments\/env-missing-name\.yaml$/m);
    const download = await ferry(['-w', ws, 'import', `${base}/exports/Team%20QA.postman_environment.json`, '--json']);
    expect(JSON.parse(download.stdout)).toMatchObject({ kind: 'environment', name: 'Team QA', environments: 1 });
    expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(['Team QA.yaml', 'env-missing-name.yaml']);
    expect(await fs.readFile(path.join(ws, 'environments', 'Team QA.yaml'), 'utf8')).toMatch(/^name: Team QA$/m);
  });

  it('refuses a download over 50 MB as it arrives, and a failing one', async () => {
    const { ws } = await initedWorkspace();
    const huge = await ferry(['-w', ws, 'import', `${base}/huge`]);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/limited to 50 MB/);
    const missing = await ferry(['-w', ws, 'import', `${base}/nope`]);
    expect(missing.stderr).toMatch(/failed with status 404/);
  });

  it('--curl saves one request into the collection', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', '--curl', `curl -X POST 'http://127.0.0.1:1/items' -H 'Content-Type: application/json' -d '{"a":1}' -x http://proxy:8080`, '--name', 'Create item']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Imported "Create item": 1 request, 0 folders/);
    expect(result.stdout).toMatch(/^Wrote requests\/Create item\.yaml$/m);
    expect(result.stdout).toMatch(/Proxy options are not imported \(--proxy\)/);
    const text = await fs.readFile(path.join(ws, 'requests', 'Create item.yaml'), 'utf8');
    expect(text).toBe(
      `name: Create item\nmethod: POST\nurl: http://127.0.0.1:1/items\nheaders:\n  - key: Content-Type\n    value: application/json\nbody:\n  type: json\n  text: '{"a":1}'\n`,
    );
  });

  it('bad usage and bad files exit 2 with a message', async () => {
    const { ws } = await initedWorkspace();
    expect((await ferry(['-w', ws, 'import'])).stderr).toMatch(/Give a file, a URL/);
    const v1 = await ferry(['-w', ws, 'import', path.join(CORPUS, 'postman/v1-newman-sample.postman_collection.json')]);
    expect(v1.code).toBe(2);
    expect(v1.stderr).toMatch(/v1 format.*v2\.1/);
    // --name is checked before anything is read, the same for every kind of import.
    for (const args of [['--curl', 'curl http://127.0.0.1:1/'], [path.join(CORPUS, 'postman/v20-hawk-auth.postman_collection.json')]]) {
      const empty = await ferry(['-w', ws, 'import', ...args, '--name', ' ']);
      expect([empty.code, empty.stderr]).toEqual([2, 'ferry: --name: A name cannot be empty; give a name of 1 to 200 characters.\n']);
      const long = await ferry(['-w', ws, 'import', ...args, '--name', 'n'.repeat(201)]);
      expect([long.code, long.stderr]).toEqual([2, 'ferry: --name: A name can have at most 200 characters; this one has 201.\n']);
    }
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual([]);
    const missing = await ferry(['-w', ws, 'import', 'nope.json']);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});

describe('ferry import URL through a proxy (issue 20)', () => {
  let proxy: TestProxy;
  beforeAll(async () => {
    proxy = await startHttpProxy({ credentials: 'ann:s3cret' });
  });
  afterAll(() => proxy.close());

  it('uses the proxy setting, its password from the secret store; a 407 names the proxy; a file opens no network', async () => {
    const { ws } = await initedWorkspace();
    // Loopback goes direct unless noProxy opts it in: the tests' server and proxy are on 127.0.0.1.
    expect((await ferry(['config', 'set', 'noProxy', '<-loopback>'])).code).toBe(0);
    expect((await ferry(['config', 'set', 'proxy', proxy.url])).code).toBe(0);
    const denied = await ferry(['-w', ws, 'import', `${base}/env.json`]);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain(`Could not download ${base}/env.json: the proxy ${proxy.url} asks for a user name and password (407 Proxy Authentication Required)`);

    expect((await ferry(['config', 'set', 'proxy', proxy.url.replace('http://', 'http://ann:s3cret@')])).code).toBe(0);
    const before = proxy.seen.length;
    const result = await ferry(['-w', ws, 'import', `${base}/moved`, '--json']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'environment', name: 'Remote' });
    const basic = `Basic ${Buffer.from('ann:s3cret').toString('base64')}`;
    expect(proxy.seen.slice(before)).toEqual([{ line: `GET ${base}/moved`, authorization: basic }, { line: `GET ${base}/env.json`, authorization: basic }]);

    const file = path.join(ws, '..', 'env.json');
    await fs.writeFile(file, JSON.stringify({ name: 'Local', values: [], _postman_variable_scope: 'environment' }));
    const seen = proxy.seen.length;
    expect((await ferry(['-w', ws, 'import', file])).code).toBe(0);
    expect(proxy.seen.length).toBe(seen);
  });
});

describe('ferry import URL that cannot be reached', () => {
  it("says why in a send's words, not Node's (connect ECONNREFUSED); nothing is written", async () => {
    const { ws } = await initedWorkspace();
    const closed = `http://127.0.0.1:${await freePort()}/openapi.json`;
    const refused = await ferry(['-w', ws, 'import', closed]);
    expect([refused.code, refused.stderr]).toEqual([2, `ferry: Could not download ${closed}: connection refused by ${new URL(closed).host}: nothing is listening there. Is the server running, and is the port right?\n`]);
    // A plaintext server asked for TLS: the server is there, the scheme is wrong.
    const tls = `${base.replace('http://', 'https://')}/env.json`;
    const plain = await ferry(['-w', ws, 'import', tls]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(new RegExp(`^ferry: Could not download ${tls.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: TLS error with 127\\.0\\.0\\.1:\\d+: the server does not answer TLS .*check the port\\.\\n$`));
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual([]);
  });
});

describe('ferry import ENV --into FOLDER', () => {
  it('says --into was not used: the environment goes to environments/', async () => {
    const { ws } = await initedWorkspace();
    await fs.mkdir(path.join(ws, 'requests', 'APIs'));
    const file = path.join(await tempDir(), 'dev.postman_environment.json');
    await fs.writeFile(file, JSON.stringify({ name: 'Dev', values: [{ key: 'a', value: '1', enabled: true }], _postman_variable_scope: 'environment' }));
    const result = await ferry(['-w', ws, 'import', file, '--into', 'APIs', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).notes).toEqual(['--into was not used: it names a folder for requests, and an environment export has none; the environment is written to environments/.']);
    expect(await fs.readdir(path.join(ws, 'environments'))).toEqual(['Dev.yaml']);
    expect(await fs.readdir(path.join(ws, 'requests', 'APIs'))).toEqual([]);
  });
});

describe('ferry import of a collection already imported', () => {
  it("names the folder the files went to (Shop 2) in its notes, not the first import's Shop", async () => {
    const { ws } = await initedWorkspace();
    const file = path.join(await tempDir(), 'shop.json');
    await fs.writeFile(file, JSON.stringify({
      info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        { name: 'Upload', request: { method: 'POST', url: 'http://127.0.0.1:9/upload', body: { mode: 'file', file: { src: '/photos/cat.png' } } } },
        { name: 'Shop/Evt', event: [{ listen: 'other', script: { exec: ['1'] } }], request: { method: 'GET', url: 'http://127.0.0.1:9/' } },
      ],
    }));
    const first = await ferry(['import', file], ws);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Files are not part of an export; choose them again for: Shop/Upload (binary body: /photos/cat.png).');
    const second = await ferry(['import', file, '--json'], ws);
    expect(second.code, second.stderr).toBe(0);
    expect(await fs.readdir(path.join(ws, 'requests', 'Shop 2'))).toEqual(expect.arrayContaining(['Upload.yaml', 'Shop-Evt.yaml']));
    // The request named Shop/Evt keeps its own name in the path; only the top folder moves.
    expect(JSON.parse(second.stdout).notes).toEqual([
      'Scripts of other events were skipped: Shop 2/Shop/Evt (other).',
      'Files are not part of an export; choose them again for: Shop 2/Upload (binary body: /photos/cat.png).',
    ]);
  });
});
