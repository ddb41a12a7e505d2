/**
 * The self-signed certificate for localhost (spec 5.3), generated once per data folder and reused,
 * so a client that trusted it once keeps trusting it. Generation happens once per process even when
 * several servers start together; the files are kept through appdata/ (certificates.ts).
 */
import { X509Certificate } from 'node:crypto';
import { certificateFolder, readStoredCertificate, storeCertificate } from '../appdata/index.js';

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
  if (stored && stillValid(stored.cert)) return { cert: stored.cert, key: stored.key, source: stored.file };
  // missing, damaged or expiring: make a new one
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
  const saved = await storeCertificate(dir, { cert: generated.cert, key: generated.private });
  return { cert: saved.cert, key: saved.key, source: saved.file };
}

function stillValid(cert: string): boolean {
  try {
    return Date.parse(new X509Certificate(cert).validTo) - Date.now() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}
