/**
 * Reads the files of the `caFiles` and `clientCertificates` settings for one run (issue 20).
 * They are this computer's files, named in its settings, never the workspace's (appdata reads
 * them). A CA file that cannot be used stops the run. A certificate file that cannot be read, or a
 * key that does not fit its certificate, becomes a problem of that certificate: requests to its
 * hosts fail saying so, other requests are not affected.
 */
import tls from 'node:tls';
import {
  certificatePassphrase, CLIENT_CERTIFICATES_FIX, readCertificateFiles, readStoredCaFiles, SettingFileError, storedSettingMessage, type AppSettings,
} from '../appdata/index.js';
import { checkCertificate, type ClientCertificateMaterial, type ClientTls } from './client-tls.js';

/**
 * The run's TLS material, or undefined when neither setting is used. Throws a SettingsError for a
 * CA file that cannot be used (it would affect every request).
 */
export async function loadClientTls(settings: Pick<AppSettings, 'caFiles' | 'clientCertificates'>): Promise<ClientTls | undefined> {
  if (settings.caFiles.length === 0 && settings.clientCertificates.length === 0) return undefined;
  let ca: string[] | undefined;
  if (settings.caFiles.length) {
    const extra = await readStoredCaFiles(settings.caFiles);
    // Added to the system's authorities, not instead of them.
    ca = [...tls.rootCertificates, ...extra.map((pem) => pem.toString('utf8'))];
  }
  const certificates = await Promise.all(settings.clientCertificates.map(async (entry): Promise<ClientCertificateMaterial> => {
    const source = entry.pfxPath ?? `${entry.certPath} + ${entry.keyPath}`;
    const material: ClientCertificateMaterial = { host: entry.host, source };
    try {
      Object.assign(material, await readCertificateFiles(entry));
      const passphrase = await certificatePassphrase(entry.host).catch(() => undefined);
      if (passphrase !== undefined) material.passphrase = passphrase;
      const problem = checkCertificate(material);
      if (problem) material.problem = problem;
    } catch (error) {
      const why = error instanceof SettingFileError ? storedSettingMessage(error, CLIENT_CERTIFICATES_FIX) : (error as Error).message;
      material.problem = `the client certificate for ${entry.host} cannot be used: ${why}`;
    }
    return material;
  }));
  return { ...(ca ? { ca } : {}), certificates };
}
