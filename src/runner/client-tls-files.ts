/**
 * Reads the files of the `caFiles` and `clientCertificates` settings for one run (issue 20).
 * They are this computer's files, named in its settings, never the workspace's. A file that
 * cannot be read, or a key that does not fit its certificate, becomes a problem of that
 * certificate: requests to its hosts fail saying so, other requests are not affected.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { certificatePassphrase, type AppSettings } from '../appdata/index.js';
import { checkCertificate, type ClientCertificateMaterial, type ClientTls } from '../protocols/index.js';

const expand = (file: string) => path.resolve(file.startsWith('~/') ? path.join(os.homedir(), file.slice(2)) : file);

async function read(file: string, setting: string): Promise<Buffer> {
  try {
    return await fs.readFile(expand(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'it cannot be read (permissions)' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new Error(`${setting} names ${file}, but ${why}.`);
  }
}

/** The run's TLS material, or undefined when neither setting is used. Throws for an unreadable CA file (it would affect every request). */
export async function loadClientTls(settings: Pick<AppSettings, 'caFiles' | 'clientCertificates'>): Promise<ClientTls | undefined> {
  if (settings.caFiles.length === 0 && settings.clientCertificates.length === 0) return undefined;
  let ca: string[] | undefined;
  if (settings.caFiles.length) {
    const extra = await Promise.all(settings.caFiles.map((file) => read(file, 'caFiles')));
    extra.forEach((pem, i) => {
      if (!/-----BEGIN CERTIFICATE-----/.test(pem.toString('latin1'))) throw new Error(`caFiles names ${settings.caFiles[i]}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
    });
    // Added to the system's authorities, not instead of them.
    ca = [...tls.rootCertificates, ...extra.map((pem) => pem.toString('utf8'))];
  }
  const certificates = await Promise.all(settings.clientCertificates.map(async (entry): Promise<ClientCertificateMaterial> => {
    const source = entry.pfxPath ?? `${entry.certPath} + ${entry.keyPath}`;
    const material: ClientCertificateMaterial = { host: entry.host, source };
    try {
      if (entry.pfxPath) material.pfx = await read(entry.pfxPath, `clientCertificates (${entry.host})`);
      else {
        material.cert = await read(entry.certPath!, `clientCertificates (${entry.host})`);
        material.key = await read(entry.keyPath!, `clientCertificates (${entry.host})`);
      }
      const passphrase = await certificatePassphrase(entry.host).catch(() => undefined);
      if (passphrase !== undefined) material.passphrase = passphrase;
      const problem = checkCertificate(material);
      if (problem) material.problem = problem;
    } catch (error) {
      material.problem = `the client certificate for ${entry.host} cannot be used: ${(error as Error).message}`;
    }
    return material;
  }));
  return { ...(ca ? { ca } : {}), certificates };
}
