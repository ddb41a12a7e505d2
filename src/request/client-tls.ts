/**
 * This computer's TLS material for HTTP requests (issue 20): extra certificate authorities
 * (`caFiles`, trusted besides the system's) and client certificates chosen by host pattern.
 * The runner reads the files; here they are matched to a server and turned into TLS options.
 */
import tls from 'node:tls';

export interface ClientCertificateMaterial {
  /** `api.example.com`, `*.example.com`, optionally `:port`. */
  host: string;
  cert?: Buffer;
  key?: Buffer;
  pfx?: Buffer;
  passphrase?: string;
  /** The files, for messages: `client.pem + client-key.pem` or `client.p12`. */
  source: string;
  /** Why the files cannot be used (unreadable, not PEM, key not matching): requests to the host fail with it. */
  problem?: string;
}

export interface ClientTls {
  /** The system's authorities plus the `caFiles`; absent: Node's defaults. */
  ca?: string[];
  certificates: ClientCertificateMaterial[];
}

/** The first certificate whose pattern matches the server (the first one written wins, as in Postman). */
export function certificateFor(material: ClientTls | undefined, hostname: string, port: number): ClientCertificateMaterial | undefined {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return material?.certificates.find((entry) => {
    const pattern = /^(.*?)(?::(\d+))?$/.exec(entry.host.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, ''))!;
    const name = pattern[1]!;
    if (pattern[2] && Number(pattern[2]) !== port) return false;
    if (name.startsWith('*.')) return host.endsWith(name.slice(1)) && host.length > name.length - 1;
    return name === host;
  });
}

/** TLS options for one server: the CAs and its client certificate. A certificate with a problem throws it. */
export function tlsOptionsFor(material: ClientTls | undefined, hostname: string, port: number): tls.ConnectionOptions {
  if (!material) return {};
  const options: tls.ConnectionOptions = material.ca ? { ca: material.ca } : {};
  const certificate = certificateFor(material, hostname, port);
  if (!certificate) return options;
  if (certificate.problem) throw Object.assign(new Error(certificate.problem), { code: 'FERRY_CLIENT_CERTIFICATE' });
  if (certificate.pfx) options.pfx = certificate.pfx;
  if (certificate.cert) options.cert = certificate.cert;
  if (certificate.key) options.key = certificate.key;
  if (certificate.passphrase !== undefined) options.passphrase = certificate.passphrase;
  return options;
}

/**
 * Why a certificate and key cannot be used, in words, or undefined when they can: OpenSSL checks
 * the pair (and the passphrase) when it builds a context, before any connection.
 */
export function checkCertificate(entry: Pick<ClientCertificateMaterial, 'cert' | 'key' | 'pfx' | 'passphrase' | 'source' | 'host'>): string | undefined {
  try {
    tls.createSecureContext({ cert: entry.cert, key: entry.key, pfx: entry.pfx, passphrase: entry.passphrase });
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    const what = `the client certificate for ${entry.host} (${entry.source}) cannot be used`;
    if (/key values mismatch/i.test(message)) return `${what}: the key does not belong to the certificate. Check certPath and keyPath.`;
    // A wrong passphrase mostly fails the decryption ("bad decrypt"), but about one time in 256 the
    // garbage it makes ends in valid padding and fails later, as a key OpenSSL cannot decode.
    const lockedKey = entry.key !== undefined && ENCRYPTED_KEY.test(entry.key.toString('latin1', 0, Math.min(entry.key.length, 4096)));
    if (/bad decrypt|mac verify failure|bad password|interrupted or cancelled/i.test(message) || (lockedKey && /DECODER routines|unsupported/i.test(message))) {
      return `${what}: the passphrase is wrong or missing. Give it as "passphrase" in ferry config set clientCertificates (it is kept in the secret store).`;
    }
    if (/no start line|bad base64|PEM|asn1|not enough data|wrong tag/i.test(message)) return `${what}: a file is not a PEM certificate or key (${message.split('\n')[0]}).`;
    return `${what}: ${message.split('\n')[0]}.`;
  }
}

/** A PEM private key locked with a passphrase (PKCS #8, or the traditional OpenSSL form). */
const ENCRYPTED_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/;

/** The default ports of the URL schemes that speak TLS. */
const TLS_PORTS: Record<string, number> = { 'https:': 443, 'wss:': 443, 'grpcs:': 443, 'mqtts:': 8883, 'tls:': 853 };

/** TLS options for `url`'s server (its scheme's default port when it names none); nothing for a scheme without TLS. */
export function tlsOptionsForUrl(material: ClientTls | undefined, url: URL): tls.ConnectionOptions {
  const defaultPort = TLS_PORTS[url.protocol];
  return defaultPort === undefined ? {} : tlsOptionsFor(material, url.hostname, Number(url.port) || defaultPort);
}
