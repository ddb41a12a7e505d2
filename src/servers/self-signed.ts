/**
 * The self-signed certificate for localhost (spec 5.3), generated once per data folder and reused,
 * so a client that trusted it once keeps trusting it. Generation happens once per process even when
 * several servers start together; the files are written atomically.
 */
import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import { dataDir } from '../appdata/index.js';
import { writeFileAtomic } from '../support/atomic-write.js';
import { readFileNoFollow } from '../support/read-no-follow.js';

export const CERT_FILE = 'localhost-cert.pem';
export const KEY_FILE = 'localhost-key.pem';
const VALID_DAYS = 825; // the longest validity browsers accept for a server certificate
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

const inFlight = new Map<string, Promise<{ cert: string; key: string; source: string }>>();

/** The folder the generated certificate lives in: `<data folder>/certificates` unless given. */
export function certificateFolder(given?: string): string {
  return given ?? path.join(dataDir(), 'certificates');
}

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
  const certFile = path.join(dir, CERT_FILE);
  const keyFile = path.join(dir, KEY_FILE);
  try {
    // Never through a link: one would make the server present (and serve with) a file from elsewhere.
    const [cert, key] = await Promise.all([readFileNoFollow(certFile, 'utf8'), readFileNoFollow(keyFile, 'utf8')]);
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - Date.now() > RENEW_BEFORE_MS) return { cert, key, source: certFile };
  } catch {
    // missing, damaged or expiring: make a new one below
  }
  const now = new Date();
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
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Key first: a reader that finds the certificate always finds its key.
  await writeFileAtomic(keyFile, generated.private, 0o600);
  await writeFileAtomic(certFile, generated.cert, 0o644);
  return { cert: generated.cert, key: generated.private, source: certFile };
}
