/** The generated localhost certificate is kept by appdata/: one pair in the data folder, key private. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CERT_FILE, certificateFolder, KEY_FILE, readStoredCertificate, storeCertificate } from '../../src/appdata/index.js';
import { localhostCertificate } from '../../src/servers/self-signed.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

describe('stored certificate', () => {
  it('lives under <data folder>/certificates unless a folder is given', async () => {
    const data = await isolatedDataDir();
    expect(certificateFolder()).toBe(path.join(data, 'certificates'));
    expect(certificateFolder('/elsewhere')).toBe('/elsewhere');
  });

  it('stores the pair with the key readable only by this user, and reads it back', async () => {
    const dir = path.join(await tempDir(), 'certificates');
    expect(await readStoredCertificate(dir)).toBeUndefined();
    const saved = await storeCertificate(dir, { cert: 'CERT', key: 'KEY' });
    expect(saved.file).toBe(path.join(dir, CERT_FILE));
    expect((await fs.stat(path.join(dir, KEY_FILE))).mode & 0o077).toBe(0);
    expect((await fs.stat(dir)).mode & 0o077).toBe(0);
    expect(await readStoredCertificate(dir)).toEqual({ cert: 'CERT', key: 'KEY', file: saved.file });
  });

  it('a pair missing its key counts as none', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, CERT_FILE), 'CERT');
    expect(await readStoredCertificate(dir)).toBeUndefined();
  });

  it('the servers generate the certificate once and keep it through the store', async () => {
    await isolatedDataDir();
    const made = await localhostCertificate();
    const stored = await readStoredCertificate(certificateFolder());
    expect(stored).toEqual({ cert: made.cert, key: made.key, file: made.source });
    expect((await localhostCertificate()).cert).toBe(made.cert);
    // A damaged file is replaced by a new certificate, stored the same way.
    await fs.writeFile(stored!.file, 'not a certificate');
    const renewed = await localhostCertificate();
    expect(renewed.cert).not.toBe(made.cert);
    expect((await readStoredCertificate(certificateFolder()))!.cert).toBe(renewed.cert);
  });

  it('processes starting TLS servers at the same moment agree on one certificate, its key beside it; a pair that does not match is made again', async () => {
    const data = await isolatedDataDir();
    const { execFile } = await import('node:child_process');
    const script = path.join(data, 'make.mts');
    await fs.writeFile(script, `
      import { localhostCertificate } from ${JSON.stringify(path.resolve('src/servers/self-signed.ts'))};
      process.stdout.write((await localhostCertificate()).cert);
    `);
    const made = await Promise.all(Array.from({ length: 4 }, () => new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, FERRY_DATA_DIR: data }, timeout: 60_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    })));
    const stored = (await readStoredCertificate(certificateFolder()))!;
    expect(new Set(made)).toEqual(new Set([stored.cert]));
    const { X509Certificate, createPrivateKey } = await import('node:crypto');
    expect(new X509Certificate(stored.cert).checkPrivateKey(createPrivateKey(stored.key))).toBe(true);
    // The key of another pair beside it (written by an older Ferry that lost such a race): not served, made again.
    const other = (await import('node:crypto')).generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await fs.writeFile(path.join(certificateFolder(), KEY_FILE), other);
    const again = await localhostCertificate();
    expect(again.cert).not.toBe(stored.cert);
    expect(new X509Certificate(again.cert).checkPrivateKey(createPrivateKey(again.key))).toBe(true);
  }, 90_000);
});
