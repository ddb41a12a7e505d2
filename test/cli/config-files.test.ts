/**
 * Settings that name files (`caFiles`, `clientCertificates`) and `httpVersion`: `ferry config set`
 * refuses what a run could not use (exit 2, nothing written), and a stored setting gone bad since
 * (a file deleted, a hand edit) is said in one line by every command that uses it, naming the
 * setting, settings.json and what to do: exit 2, never a stack trace, nothing sent.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { LoadInputError, planLoadTest } from '../../src/load/index.js';
import { ferry } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { openedWorkspace } from '../runner/workspace.js';

let server: http.Server;
let base: string;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function setup() {
  const opened = await openedWorkspace({
    'requests/ping.yaml': { name: 'ping', url: `${base}/ping` },
    'loadtests/quick.yaml': { name: 'quick', targets: [{ request: 'ping.yaml' }], model: 'arrivalRate', stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.3, target: 10 }] },
  });
  const files = await tempDir('ferry-pem-');
  const made = await selfsigned.generate([{ name: 'commonName', value: 'Ferry Test CA' }], { keyType: 'ec', algorithm: 'sha256', days: 2 } as never);
  await fs.writeFile(path.join(files, 'ca.pem'), made.cert);
  await fs.writeFile(path.join(files, 'key.pem'), made.private);
  await fs.writeFile(path.join(files, 'notes.txt'), 'not a certificate\n');
  const settingsFile = path.join(opened.temp.dataDir, 'settings.json');
  return { root: opened.temp.root, ws: opened.ws, data: opened.data, settingsFile, file: (name: string) => path.join(files, name) };
}

const exists = (file: string) => fs.stat(file).then(() => true, () => false);

describe('ferry config set checks the files a setting names', () => {
  it('caFiles: a missing file, a folder, a file without a PEM certificate are refused (exit 2, nothing written); a PEM file is taken', async () => {
    const { settingsFile, file } = await setup();
    for (const [value, why] of [
      ['/nonexistent.pem', '/nonexistent.pem: it does not exist.'],
      [file('notes.txt'), `${file('notes.txt')}: it holds no PEM certificate (-----BEGIN CERTIFICATE-----).`],
      [path.dirname(file('ca.pem')), `${path.dirname(file('ca.pem'))}: it is a folder, not a file.`],
      [`${file('ca.pem')},/nonexistent.pem`, '/nonexistent.pem: it does not exist.'],
    ]) {
      const refused = await ferry(['config', 'set', 'caFiles', value!]);
      expect(refused.code, value).toBe(2);
      expect(refused.stderr, value).toBe(`ferry: Setting caFiles cannot use ${why} It takes PEM files of certificate authorities, comma-separated (or none); nothing was changed.\n`);
      expect(await exists(settingsFile), value).toBe(false);
    }
    const taken = await ferry(['config', 'set', 'caFiles', file('ca.pem')]);
    expect(taken.code).toBe(0);
    expect((await ferry(['config', 'get', 'caFiles'])).stdout.trim()).toBe(file('ca.pem'));
  });

  it('clientCertificates: each entry\'s files must exist and hold PEM (certificate and key); nothing written when refused', async () => {
    const { settingsFile, file } = await setup();
    const entry = (certPath: string, keyPath: string) => JSON.stringify([{ host: 'api.example.test', certPath, keyPath }]);
    const missing = await ferry(['config', 'set', 'clientCertificates', entry(file('ca.pem'), '/nonexistent-key.pem')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ferry: Setting clientCertificates \(api\.example\.test\) cannot use \/nonexistent-key\.pem: it does not exist\. It takes PEM certPath and keyPath files/);
    const notCert = await ferry(['config', 'set', 'clientCertificates', entry(file('notes.txt'), file('key.pem'))]);
    expect(notCert.code).toBe(2);
    expect(notCert.stderr).toContain(`cannot use ${file('notes.txt')}: it holds no PEM certificate`);
    const notKey = await ferry(['config', 'set', 'clientCertificates', entry(file('ca.pem'), file('notes.txt'))]);
    expect(notKey.code).toBe(2);
    expect(notKey.stderr).toContain(`cannot use ${file('notes.txt')}: it holds no PEM private key`);
    const pfx = await ferry(['config', 'set', 'clientCertificates', JSON.stringify([{ host: 'a.test', pfxPath: '/nonexistent.p12' }])]);
    expect(pfx.code).toBe(2);
    expect(pfx.stderr).toContain('cannot use /nonexistent.p12: it does not exist.');
    expect(await exists(settingsFile)).toBe(false);
    expect((await ferry(['config', 'set', 'clientCertificates', entry(file('ca.pem'), file('key.pem'))])).code).toBe(0);
  });
});

describe('a stored caFiles that cannot be used: one line from every command that uses it, exit 2, nothing sent', () => {
  it('run, import from a URL and load say the setting, settings.json and what to do', async () => {
    const { root, settingsFile, file } = await setup();
    // Set while the file was there, deleted since.
    await fs.copyFile(file('ca.pem'), file('gone.pem'));
    expect((await ferry(['config', 'set', 'caFiles', file('gone.pem')])).code).toBe(0);
    await fs.rm(file('gone.pem'));
    const line = `ferry: caFiles in ${settingsFile} names ${file('gone.pem')}, but it does not exist. Change it with ferry config set caFiles FILE[,FILE…], or clear it with ferry config set caFiles none.\n`;
    hits = 0;
    for (const args of [['run', 'ping'], ['import', `${base}/doc.json`], ['load', 'quick']]) {
      const result = await ferry(['-w', root, ...args]);
      expect(result.stderr, args[0]).toBe(line);
      expect(result.code, args[0]).toBe(2);
    }
    // Edited by hand: a file that holds no certificate.
    await fs.writeFile(settingsFile, JSON.stringify({ caFiles: [file('notes.txt')] }));
    const run = await ferry(['-w', root, 'run', 'ping']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`ferry: caFiles in ${settingsFile} names ${file('notes.txt')}, but it holds no PEM certificate (-----BEGIN CERTIFICATE-----). Change it with ferry config set caFiles FILE[,FILE…], or clear it with ferry config set caFiles none.\n`);
    expect(hits).toBe(0);
    // Cleared as the message says: runs send again.
    expect((await ferry(['config', 'set', 'caFiles', 'none'])).code).toBe(0);
    expect((await ferry(['-w', root, 'run', 'ping'])).code).toBe(0);
    expect(hits).toBe(1);
  });
});

describe('httpVersion http3: a value of the format, refused as this computer\'s setting', () => {
  it('ferry config set refuses it (exit 2, nothing written); a stored one (a hand edit) is ignored like any invalid value', async () => {
    const { root, settingsFile } = await setup();
    const refused = await ferry(['config', 'set', 'httpVersion', 'http3']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('ferry: Setting httpVersion takes auto, http1 or http2, not "http3": HTTP/3 is not supported yet.\n');
    expect(await exists(settingsFile)).toBe(false);
    await fs.mkdir(path.dirname(settingsFile), { recursive: true });
    await fs.writeFile(settingsFile, JSON.stringify({ httpVersion: 'http3' }));
    expect((await ferry(['config', 'get', 'httpVersion'])).stdout.trim()).toBe('auto');
    hits = 0;
    expect((await ferry(['-w', root, 'run', 'ping'])).code).toBe(0);
    expect(hits).toBe(1);
    // A request's own http3 is still the request's, and said so.
    await fs.writeFile(path.join(root, 'requests', 'h3.yaml'), `name: h3\nurl: ${base}/h3\nsettings:\n  httpVersion: http3\n`);
    const h3 = await ferry(['-w', root, 'run', 'h3']);
    expect(h3.code).toBe(1);
    expect(h3.stdout).toContain('HTTP/3 is not supported yet: set settings.httpVersion to auto, http1 or http2 for this request.');
  });

  it('a load test blames the application setting, not its file, when http3 comes from the settings', async () => {
    const { ws, data } = await setup();
    const plan = planLoadTest({ workspace: ws, id: 'quick', data, settings: { ...DEFAULT_SETTINGS, httpVersion: 'http3' } });
    await expect(plan).rejects.toThrow(LoadInputError);
    await expect(plan).rejects.toThrow(/^The application setting httpVersion is http3 \(in .*settings\.json\), which load tests do not support; change it with ferry config set httpVersion auto \(or http1, http2\), or give loadtests\/quick\.yaml an httpVersion of its own\.$/);
  });
});
