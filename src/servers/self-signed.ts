/**
 * The self-signed certificate for localhost (spec 5.3), generated once per data folder and reused,
 * so a client that trusted it once keeps trusting it. Generation happens once per process even when
 * several servers start together; the files are kept through appdata/ (certificates.ts).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { certificateFolder, readStoredCertificate, storedOrMadeCertificate } from '../appdata/index.js';

const VALID_DAYS = 825; // the longest validity browsers accept for a server certificate
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

const inFlight = new Map<string, Promise<{ cert: string; key: string; source: string }>>();

export function localhostCertificate(given?: string): Promise<{ cert: string; key: string; source: string }> {
  const dir = certificateFolder(given);
  let pending = inFlight.get(dir);
  if (!pending) {
    pending = loadOrCreate(dir).finally(() => inFlight.delete(dir));
    inFlight.set(dir, pending);
  }
  return pending;
}

async function loadOrCreate(dir: string): Promise<{ cert: string; key: string; source: string }> {
  const stored = await readStoredCertificate(dir);
  // Missing, damaged, expiring or not the key's: a new one, made by one process of those starting now.
  const saved = stored && usable(stored) ? stored : await storedOrMadeCertificate(dir, usable, make);
  return { cert: saved.cert, key: saved.key, source: saved.file };
}

async function make(): Promise<{ cert: string; key: string }> {
  const now = new Date();
  // Imported here: selfsigned (and its certificate libraries) loads only when a certificate is made.
  const { generate } = await import('selfsigned');
  const generated = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  return { cert: generated.cert, key: generated.private };
}

/** Valid for a week more at least, and its key beside it (not another pair's). */
function usable(stored: { cert: string; key: string }): boolean {
  try {
    const cert = new X509Certificate(stored.cert);
    return Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS && cert.checkPrivateKey(createPrivateKey(stored.key));
  } catch {
    return false;
  }
}
