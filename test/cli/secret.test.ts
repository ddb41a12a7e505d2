/** `ferry secret ls|set|unset`: values of secret variables stored on this computer, and sent by runs. */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ferry, ferryBin } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let dataDir: string;
let ws: string;
let server: http.Server;
let seen: Array<http.IncomingHttpHeaders & { body: string }>;

beforeEach(async () => {
  dataDir = await isolatedDataDir();
  ws = await tempDir();
  seen = [];
  server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    seen.push({ ...req.headers, body });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await fs.writeFile(
    path.join(ws, 'ferry.yaml'),
    ['version: 1', 'id: secret-cli', 'name: Secrets', 'variables:', `  - key: base`, `    value: http://127.0.0.1:${port}`, '  - key: token', '    secret: true', '  - key: plain', '    value: visible', ''].join('\n'),
  );
  await fs.mkdir(path.join(ws, 'requests'));
  await fs.writeFile(
    path.join(ws, 'requests', 'Call.yaml'),
    ['name: Call', 'method: POST', 'url: "{{base}}/call"', 'headers:', '  - key: X-Token', '    value: "{{token}}"', 'body:', '  type: text', '  text: "{{password}}"', ''].join('\n'),
  );
  await fs.mkdir(path.join(ws, 'environments'));
  await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), ['name: Staging Env', 'variables:', '  - key: password', '    secret: true', ''].join('\n'));
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** `ferry` as shipped (bin/ferry.js), in its own process, on the test's workspace and data folder. */
const shipped = (args: string[], stdin?: string) => ferryBin(['-w', ws, ...args], dataDir, { stdin });

/** Every file of the data folder, as text, to look for plain-text values. */
async function dataFolderText(): Promise<string> {
  const files = (await fs.readdir(dataDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const texts = await Promise.all(files.map((entry) => fs.readFile(path.join(entry.parentPath, entry.name), 'utf8')));
  return texts.join('\n');
}

describe('ferry secret', () => {
  it('stores values from standard input encrypted, lists them, and runs send them', async () => {
    expect((await ferry(['-w', ws, 'secret', 'ls'])).stdout).toBe('workspace  token     not set\nstaging    password  not set\n');

    const setToken = await ferry(['-w', ws, 'secret', 'set', 'token'], ws, 'tok-123-secret\n');
    expect(setToken).toMatchObject({ code: 0, stdout: '' });
    expect(setToken.stderr).toContain('stored the value of token (workspace)');
    // The environment by its name, as `ferry run -e` takes it; a value with a line break inside is kept whole.
    expect((await ferry(['-w', ws, 'secret', 'set', 'password', '--env', 'Staging Env'], ws, 'line1\nline2-pass\r\n')).code).toBe(0);

    const listed = await ferry(['-w', ws, 'secret', 'ls', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      { scope: 'workspace', name: 'token', stored: true },
      { scope: 'staging', name: 'password', stored: true },
    ]);
    const text = await dataFolderText();
    expect(text).not.toContain('tok-123-secret');
    expect(text).not.toContain('line2-pass');
    // Nothing was written into the workspace.
    expect(await fs.readFile(path.join(ws, 'ferry.yaml'), 'utf8')).not.toContain('tok-123');

    const run = await ferry(['-w', ws, 'run', '-e', 'staging']);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('tok-123-secret');
    expect(seen.at(-1)).toMatchObject({ 'x-token': 'tok-123-secret', body: 'line1\nline2-pass' });
  });

  it('ls says which environment files cannot be read (they may declare secrets), rather than leaving them out unsaid (spec 2.1.9)', async () => {
    await fs.writeFile(path.join(ws, 'environments', 'broken.yaml'), 'name: Broken\nvariables:\n  - key: apiKey\n    secret: [true\n');
    const listed = await ferry(['-w', ws, 'secret', 'ls']);
    expect(listed.stdout).toBe('workspace  token     not set\nstaging    password  not set\n');
    expect(listed.stderr).toMatch(/^ferry: environments\/broken\.yaml:\d+:\d+: YAML syntax error: .+ \(not listed: fix the file to use it\)\n$/);
    expect((await ferry(['-w', ws, 'secret', 'ls', '--json'])).stderr).toBe(listed.stderr);
    // One environment asked for by -e: the others' problems are not its own.
    expect((await ferry(['-w', ws, 'secret', 'ls', '-e', 'staging'])).stderr).toBe('');

    await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: secret-cli\nname: Secrets\n');
    await fs.rm(path.join(ws, 'environments', 'staging.yaml'));
    const none = await ferry(['-w', ws, 'secret', 'ls']);
    expect(none.stdout).toBe('No secret variables in the files that can be read; the environment files below cannot be, and may declare some.\n');
    expect(none.stderr).toContain('environments/broken.yaml');
  });

  it('unset forgets the value: the placeholder then stays as written', async () => {
    await ferry(['-w', ws, 'secret', 'set', 'token'], ws, 'abc');
    expect((await ferry(['-w', ws, 'secret', 'unset', 'token'])).code).toBe(0);
    expect((await ferry(['-w', ws, 'secret', 'ls', '--json'])).stdout).toContain('"stored": false');
    // Removing what is not there succeeds with a notice, as `ferry cookies clear` of nothing and `rm -f` (running.md, exit codes).
    const again = await ferry(['-w', ws, 'secret', 'unset', 'token']);
    expect(again).toEqual({ code: 0, stdout: '', stderr: 'ferry: this computer has no value for token (workspace); nothing removed.\n' });
  });

  it('refuses variables that are missing or not secret, unknown environments and huge values, storing nothing', async () => {
    const missing = await ferry(['-w', ws, 'secret', 'set', 'nope'], ws, 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ferry.yaml has no variable "nope". Add it there with `secret: true`');
    expect(missing.stderr).toContain('its secret variables are: token');

    const plain = await ferry(['-w', ws, 'secret', 'set', 'plain'], ws, 'x');
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('The variable "plain" in ferry.yaml is not secret');

    const env = await ferry(['-w', ws, 'secret', 'set', 'password', '--env', 'prod'], ws, 'x');
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('No environment "prod". Environments here: staging.');

    const huge = await ferry(['-w', ws, 'secret', 'set', 'token'], ws, 'x'.repeat(1024 * 1024 + 1));
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('larger than 1 MB');
    expect(JSON.parse((await ferry(['-w', ws, 'secret', 'ls', '--json'])).stdout)).toEqual([
      { scope: 'workspace', name: 'token', stored: false },
      { scope: 'staging', name: 'password', stored: false },
    ]);
  });

  it('an empty value (a CI variable that was not set: printf %s "$TOKEN" | …) is refused, not stored; a stored value stays', async () => {
    expect((await ferry(['-w', ws, 'secret', 'set', 'token'], ws, 'kept')).code).toBe(0);
    for (const input of ['', '\n', '\r\n']) {
      const empty = await ferry(['-w', ws, 'secret', 'set', 'token'], ws, input);
      expect(empty.code, JSON.stringify(input)).toBe(2);
      expect(empty.stderr).toBe('ferry: No value on standard input for token: nothing was stored. Give the value on standard input (printf %s "$TOKEN" | ferry secret set token), or remove this computer\'s value with ferry secret unset token.\n');
    }
    // An environment named with a space is given back to -e in quotes, as the shell needs it.
    const spaced = await ferry(['-w', ws, 'secret', 'set', 'password', '-e', 'Staging Env'], ws, '');
    expect(spaced.stderr).toBe('ferry: No value on standard input for password: nothing was stored. Give the value on standard input (printf %s "$TOKEN" | ferry secret set password -e "Staging Env"), or remove this computer\'s value with ferry secret unset password -e "Staging Env".\n');
    expect(JSON.parse((await ferry(['-w', ws, 'secret', 'ls', '--json'])).stdout)).toContainEqual({ scope: 'workspace', name: 'token', stored: true });
    // The shipped binary with standard input empty, as a CI step gives it.
    const shippedEmpty = await shipped(['secret', 'set', 'token'], '');
    expect(shippedEmpty.code).toBe(2);
    expect(shippedEmpty.stderr).toContain('No value on standard input for token');
  });

  it('a value stored with another secret.key is listed as unreadable and used as not set; runs go on, and set or unset replace it', async () => {
    // Separate processes, as a user's commands are (one process keeps the key it loaded).
    expect((await shipped(['secret', 'set', 'token'], 'stored-with-the-old-key')).code).toBe(0);
    // The data folder copied from another computer, or the key replaced: 32 other bytes.
    await fs.writeFile(path.join(dataDir, 'secret.key'), Buffer.alloc(32, 7));
    const listed = await shipped(['secret', 'ls']);
    expect(listed).toMatchObject({ code: 0, stdout: 'workspace  token     not set: the stored value cannot be read\nstaging    password  not set\n' });
    expect(listed.stderr).toBe(`ferry: a stored value cannot be decrypted with this computer's key (${path.join(dataDir, 'secret.key')}): stored with another key, it is used as not set. Set it again with \`ferry secret set NAME [-e ENV]\`.\n`);
    expect(JSON.parse((await shipped(['secret', 'ls', '--json'])).stdout)[0]).toEqual({ scope: 'workspace', name: 'token', stored: false, unreadable: true });
    const run = await shipped(['run']);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(seen.at(-1)?.['x-token']).toBe('{{token}}');
    expect((await shipped(['secret', 'set', 'token'], 'new-value')).code).toBe(0);
    expect((await shipped(['secret', 'ls'])).stdout).toContain('workspace  token     set\n');
    await fs.writeFile(path.join(dataDir, 'secret.key'), Buffer.alloc(32, 8));
    const unset = await shipped(['secret', 'unset', 'token']);
    expect(unset).toMatchObject({ code: 0, stderr: 'ferry: removed the value of token (workspace) from this computer.\n' });
  }, 30_000);

  it('a damaged or linked secret.key or data file is refused in one line naming it; an empty key (a key-making cut short) is replaced', async () => {
    await fs.writeFile(path.join(dataDir, 'secret.key'), 'cut-short');
    for (const args of [['secret', 'ls'], ['run']]) {
      const damaged = await shipped(args);
      expect(damaged.code, args.join(' ')).toBe(2);
      expect(damaged.stderr).toBe(`ferry: ${path.join(dataDir, 'secret.key')} is damaged (9 bytes, a key has 32), so the secret values stored on this computer cannot be read. Restore it from a backup, or remove it to start a new key and set the secret values again (\`ferry secret set NAME\`).\n`);
    }
    expect(await fs.readFile(path.join(dataDir, 'secret.key'), 'utf8')).toBe('cut-short');

    await fs.writeFile(path.join(dataDir, 'secret.key'), '');
    expect((await shipped(['secret', 'set', 'token'], 'after-empty-key')).code).toBe(0);
    expect((await fs.readFile(path.join(dataDir, 'secret.key'))).length).toBe(32);
    await shipped(['run']);
    expect(seen.at(-1)?.['x-token']).toBe('after-empty-key');

    await fs.symlink(path.join(ws, 'ferry.yaml'), path.join(dataDir, 'settings.json'));
    const linked = await shipped(['run']);
    expect(linked).toMatchObject({ code: 2, stderr: `ferry: ${path.join(dataDir, 'settings.json')} is a symbolic link; Ferry never follows links in its data folder. Remove the link (Ferry writes a file of its own there).\n` });
  }, 30_000);

  it('processes making the key at the same moment agree on one key, leaving no temporary file', async () => {
    const sets = await Promise.all(['a', 'b', 'c', 'd'].map((value) => shipped(['secret', 'set', 'token'], `same-moment-${value}`)));
    expect(sets.map((set) => set.code)).toEqual([0, 0, 0, 0]);
    expect((await shipped(['secret', 'ls'])).stdout).toContain('workspace  token     set\n');
    expect((await fs.readdir(dataDir)).filter((name) => name.startsWith('secret.key'))).toEqual(['secret.key']);
  }, 30_000);

  it('on a terminal, asks for the value without echoing it', async () => {
    const bin = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
    // `script` gives the command a real pseudo-terminal; what the terminal shows is its output.
    // The value is typed only once the prompt is up, as a person would.
    const child = spawn('script', ['-qec', `${process.execPath} ${bin} -w ${ws} secret set token`, '/dev/null'], {
      env: { ...process.env, FERRY_DATA_DIR: dataDir },
    });
    let shown = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = shown;
      shown += chunk.toString('utf8');
      if (!before.includes('Value for token:') && shown.includes('Value for token:')) child.stdin.write('typed-secret-value\r');
    });
    const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(stuck);
    expect(status).toBe(0);
    expect(shown).toContain('Value for token:');
    expect(shown).not.toContain('typed-secret-value');
    await ferry(['-w', ws, 'run']);
    expect(seen.at(-1)?.['x-token']).toBe('typed-secret-value');
  });

  it('Ctrl-C at the prompt ends in one line on a line of its own, exit 1, nothing stored (no stack trace)', async () => {
    const bin = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
    // The shell `script` runs prints the exit code, as the terminal shows nothing else of it.
    const child = spawn('script', ['-qec', `${process.execPath} ${bin} -w ${ws} secret set token; echo "exit=$?"`, '/dev/null'], {
      env: { ...process.env, FERRY_DATA_DIR: dataDir, NO_COLOR: '1' },
    });
    let shown = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = shown;
      shown += chunk.toString('utf8');
      // Ctrl-C as the terminal sends it: the byte 0x03, which the prompt reads in raw mode.
      if (!before.includes('Value for token:') && shown.includes('Value for token:')) child.stdin.write('\u0003');
    });
    const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(stuck);
    expect(shown).toMatch(/Value for token: [^\n]*\r?\nferry: Interrupted: no value was stored\.\r?\n/);
    expect(shown).not.toMatch(/\bat .*read\.js|Error: canceled/);
    expect(shown).toMatch(/exit=1\b/);
    expect((await shipped(['secret', 'ls'])).stdout).toContain('workspace  token     not set\n');
  });
});
