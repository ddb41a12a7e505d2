/**
 * curl's command-line options as data: long name, short letter, whether it takes an argument,
 * and what the import does with it. Long names may be abbreviated as curl allows (`--sil`).
 */

/** `use`: mapped to the request; `output`: only changes curl's output, ignored silently;
 * `proxy` / `certificate`: ignored with a note of that kind; `other`: ignored and listed in a note. */
export type OptionRole = 'use' | 'output' | 'proxy' | 'certificate' | 'other';

export interface CurlOption {
  long: string;
  short?: string;
  takesArg: boolean;
  role: OptionRole;
}

const table: [string, string | undefined, boolean, OptionRole][] = [
  // Mapped (spec 4.6)
  ['request', 'X', true, 'use'], ['header', 'H', true, 'use'], ['data', 'd', true, 'use'],
  ['data-ascii', undefined, true, 'use'], ['data-binary', undefined, true, 'use'], ['data-raw', undefined, true, 'use'],
  ['data-urlencode', undefined, true, 'use'], ['json', undefined, true, 'use'], ['form', 'F', true, 'use'],
  ['form-string', undefined, true, 'use'], ['upload-file', 'T', true, 'use'], ['get', 'G', false, 'use'],
  ['head', 'I', false, 'use'], ['user', 'u', true, 'use'], ['digest', undefined, false, 'use'],
  ['ntlm', undefined, false, 'use'], ['basic', undefined, false, 'use'], ['oauth2-bearer', undefined, true, 'use'],
  ['aws-sigv4', undefined, true, 'use'],
  ['cookie', 'b', true, 'use'], ['user-agent', 'A', true, 'use'], ['referer', 'e', true, 'use'],
  ['insecure', 'k', false, 'use'], ['location', 'L', false, 'use'], ['max-redirs', undefined, true, 'use'],
  ['max-time', 'm', true, 'use'], ['http1.0', '0', false, 'use'], ['http1.1', undefined, false, 'use'],
  ['http2', undefined, false, 'use'], ['http2-prior-knowledge', undefined, false, 'use'], ['http3', undefined, false, 'use'],
  ['http3-only', undefined, false, 'use'], ['url', undefined, true, 'use'], ['url-query', undefined, true, 'use'],
  ['globoff', 'g', false, 'use'], ['next', ':', false, 'use'],
  // Output only (ignored silently)
  ['silent', 's', false, 'output'], ['show-error', 'S', false, 'output'], ['verbose', 'v', false, 'output'],
  ['include', 'i', false, 'output'], ['output', 'o', true, 'output'], ['remote-name', 'O', false, 'output'],
  ['remote-name-all', undefined, false, 'output'], ['remote-header-name', 'J', false, 'output'],
  ['progress-bar', '#', false, 'output'], ['no-progress-meter', undefined, false, 'output'],
  ['trace', undefined, true, 'output'], ['trace-ascii', undefined, true, 'output'], ['trace-time', undefined, false, 'output'],
  ['trace-ids', undefined, false, 'output'], ['trace-config', undefined, true, 'output'], ['write-out', 'w', true, 'output'],
  ['dump-header', 'D', true, 'output'], ['stderr', undefined, true, 'output'], ['styled-output', undefined, false, 'output'],
  ['no-buffer', 'N', false, 'output'], ['output-dir', undefined, true, 'output'], ['create-dirs', undefined, false, 'output'],
  ['remote-time', 'R', false, 'output'], ['fail', 'f', false, 'output'], ['fail-with-body', undefined, false, 'output'],
  ['fail-early', undefined, false, 'output'], ['libcurl', undefined, true, 'output'], ['xattr', undefined, false, 'output'],
  ['no-clobber', undefined, false, 'output'], ['remove-on-error', undefined, false, 'output'],
  ['skip-existing', undefined, false, 'output'], ['create-file-mode', undefined, true, 'output'],
  ['help', 'h', false, 'output'], ['manual', 'M', false, 'output'], ['version', 'V', false, 'output'],
  ['quiet', 'q', false, 'output'], ['disable', undefined, false, 'output'], ['use-ascii', 'B', false, 'output'],
  ['etag-save', undefined, true, 'output'], ['parallel', 'Z', false, 'output'], ['parallel-immediate', undefined, false, 'output'],
  ['parallel-max', undefined, true, 'output'], ['rate', undefined, true, 'output'], ['limit-rate', undefined, true, 'output'],
  ['retry', undefined, true, 'output'], ['retry-delay', undefined, true, 'output'], ['retry-max-time', undefined, true, 'output'],
  ['retry-connrefused', undefined, false, 'output'], ['retry-all-errors', undefined, false, 'output'],
  // Proxies (ignored with a note)
  ['proxy', 'x', true, 'proxy'], ['proxy-user', 'U', true, 'proxy'], ['preproxy', undefined, true, 'proxy'],
  ['noproxy', undefined, true, 'proxy'], ['proxytunnel', 'p', false, 'proxy'], ['proxy1.0', undefined, true, 'proxy'],
  ['socks4', undefined, true, 'proxy'], ['socks4a', undefined, true, 'proxy'], ['socks5', undefined, true, 'proxy'],
  ['socks5-hostname', undefined, true, 'proxy'], ['socks5-basic', undefined, false, 'proxy'], ['socks5-gssapi', undefined, false, 'proxy'],
  ['socks5-gssapi-service', undefined, true, 'proxy'], ['socks5-gssapi-nec', undefined, false, 'proxy'],
  ['proxy-header', undefined, true, 'proxy'], ['proxy-anyauth', undefined, false, 'proxy'], ['proxy-basic', undefined, false, 'proxy'],
  ['proxy-digest', undefined, false, 'proxy'], ['proxy-negotiate', undefined, false, 'proxy'], ['proxy-ntlm', undefined, false, 'proxy'],
  ['proxy-insecure', undefined, false, 'proxy'], ['proxy-cacert', undefined, true, 'proxy'], ['proxy-capath', undefined, true, 'proxy'],
  ['proxy-cert', undefined, true, 'proxy'], ['proxy-cert-type', undefined, true, 'proxy'], ['proxy-key', undefined, true, 'proxy'],
  ['proxy-key-type', undefined, true, 'proxy'], ['proxy-pass', undefined, true, 'proxy'], ['proxy-http2', undefined, false, 'proxy'],
  ['proxy-service-name', undefined, true, 'proxy'], ['proxy-ciphers', undefined, true, 'proxy'], ['proxy-tlsv1', undefined, false, 'proxy'],
  ['proxy-pinnedpubkey', undefined, true, 'proxy'], ['proxy-crlfile', undefined, true, 'proxy'], ['haproxy-protocol', undefined, false, 'proxy'],
  ['haproxy-clientip', undefined, true, 'proxy'],
  // Certificates and TLS details (ignored with a note)
  ['cacert', undefined, true, 'certificate'], ['capath', undefined, true, 'certificate'], ['cert', 'E', true, 'certificate'],
  ['cert-type', undefined, true, 'certificate'], ['key', undefined, true, 'certificate'], ['key-type', undefined, true, 'certificate'],
  ['pass', undefined, true, 'certificate'], ['crlfile', undefined, true, 'certificate'], ['pinnedpubkey', undefined, true, 'certificate'],
  ['ciphers', undefined, true, 'certificate'], ['tls13-ciphers', undefined, true, 'certificate'], ['curves', undefined, true, 'certificate'],
  ['cert-status', undefined, false, 'certificate'], ['ca-native', undefined, false, 'certificate'], ['engine', undefined, true, 'certificate'],
  ['tlsv1', '1', false, 'certificate'], ['tlsv1.0', undefined, false, 'certificate'], ['tlsv1.1', undefined, false, 'certificate'],
  ['tlsv1.2', undefined, false, 'certificate'], ['tlsv1.3', undefined, false, 'certificate'], ['tls-max', undefined, true, 'certificate'],
  ['sslv2', '2', false, 'certificate'], ['sslv3', '3', false, 'certificate'], ['ssl', undefined, false, 'certificate'],
  ['ssl-reqd', undefined, false, 'certificate'], ['ssl-no-revoke', undefined, false, 'certificate'],
  ['ssl-revoke-best-effort', undefined, false, 'certificate'], ['ssl-allow-beast', undefined, false, 'certificate'],
  ['ssl-auto-client-cert', undefined, false, 'certificate'], ['tlsuser', undefined, true, 'certificate'],
  ['tlspassword', undefined, true, 'certificate'], ['tlsauthtype', undefined, true, 'certificate'], ['random-file', undefined, true, 'certificate'],
  ['egd-file', undefined, true, 'certificate'], ['doh-insecure', undefined, false, 'certificate'], ['doh-cert-status', undefined, false, 'certificate'],
  // Everything else curl knows: ignored, listed in a note
  ['compressed', undefined, false, 'use'], ['compressed-ssh', undefined, false, 'other'], ['connect-timeout', undefined, true, 'other'],
  ['connect-to', undefined, true, 'other'], ['resolve', undefined, true, 'other'], ['cookie-jar', 'c', true, 'other'],
  ['junk-session-cookies', 'j', false, 'other'], ['location-trusted', undefined, false, 'other'], ['range', 'r', true, 'other'],
  ['continue-at', 'C', true, 'other'], ['config', 'K', true, 'other'], ['anyauth', undefined, false, 'other'],
  ['negotiate', undefined, false, 'other'], ['ntlm-wb', undefined, false, 'other'],
  ['netrc', 'n', false, 'other'], ['netrc-optional', undefined, false, 'other'], ['netrc-file', undefined, true, 'other'],
  ['interface', undefined, true, 'other'], ['local-port', undefined, true, 'other'], ['ipv4', '4', false, 'other'],
  ['ipv6', '6', false, 'other'], ['keepalive-time', undefined, true, 'other'], ['keepalive-cnt', undefined, true, 'other'],
  ['no-keepalive', undefined, false, 'other'], ['no-sessionid', undefined, false, 'other'], ['no-alpn', undefined, false, 'other'],
  ['no-npn', undefined, false, 'other'], ['tcp-nodelay', undefined, false, 'other'], ['tcp-fastopen', undefined, false, 'other'],
  ['path-as-is', undefined, false, 'other'], ['post301', undefined, false, 'other'], ['post302', undefined, false, 'other'],
  ['post303', undefined, false, 'other'], ['raw', undefined, false, 'other'], ['tr-encoding', undefined, false, 'other'],
  ['request-target', undefined, true, 'other'], ['max-filesize', undefined, true, 'other'], ['speed-limit', 'Y', true, 'other'],
  ['speed-time', 'y', true, 'other'], ['time-cond', 'z', true, 'other'], ['expect100-timeout', undefined, true, 'other'],
  ['happy-eyeballs-timeout-ms', undefined, true, 'other'], ['dns-servers', undefined, true, 'other'],
  ['dns-interface', undefined, true, 'other'], ['dns-ipv4-addr', undefined, true, 'other'], ['dns-ipv6-addr', undefined, true, 'other'],
  ['doh-url', undefined, true, 'other'], ['unix-socket', undefined, true, 'other'], ['abstract-unix-socket', undefined, true, 'other'],
  ['alt-svc', undefined, true, 'other'], ['hsts', undefined, true, 'other'], ['etag-compare', undefined, true, 'other'],
  ['form-escape', undefined, false, 'other'], ['delegation', undefined, true, 'other'], ['sasl-authzid', undefined, true, 'other'],
  ['sasl-ir', undefined, false, 'other'], ['service-name', undefined, true, 'other'], ['login-options', undefined, true, 'other'],
  ['mail-from', undefined, true, 'other'], ['mail-rcpt', undefined, true, 'other'], ['mail-auth', undefined, true, 'other'],
  ['mail-rcpt-allowfails', undefined, false, 'other'], ['ftp-account', undefined, true, 'other'], ['ftp-method', undefined, true, 'other'],
  ['ftp-port', 'P', true, 'other'], ['ftp-pasv', undefined, false, 'other'], ['ftp-create-dirs', undefined, false, 'other'],
  ['list-only', 'l', false, 'other'], ['append', 'a', false, 'other'], ['quote', 'Q', true, 'other'], ['crlf', undefined, false, 'other'],
  ['telnet-option', 't', true, 'other'], ['tftp-blksize', undefined, true, 'other'], ['proto', undefined, true, 'other'],
  ['proto-default', undefined, true, 'other'], ['proto-redir', undefined, true, 'other'], ['ignore-content-length', undefined, false, 'other'],
  ['http0.9', undefined, false, 'other'], ['disallow-username-in-url', undefined, false, 'other'], ['variable', undefined, true, 'other'],
  ['ip-tos', undefined, true, 'other'], ['mptcp', undefined, false, 'other'], ['ipfs-gateway', undefined, true, 'other'],
  ['hostpubmd5', undefined, true, 'other'], ['hostpubsha256', undefined, true, 'other'], ['pubkey', undefined, true, 'other'],
  ['krb', undefined, true, 'other'], ['suppress-connect-headers', undefined, false, 'other'], ['ech', undefined, true, 'other'],
];

export const OPTIONS: CurlOption[] = table.map(([long, short, takesArg, role]) => ({ long, short, takesArg, role }));
const byLong = new Map(OPTIONS.map((o) => [o.long, o]));
const byShort = new Map(OPTIONS.filter((o) => o.short).map((o) => [o.short!, o]));

/** Finds a long option by its name, an unambiguous prefix, or a `no-` form of a switch. */
export function lookupLong(name: string): { option: CurlOption; negated: boolean } | undefined {
  const exact = byLong.get(name);
  if (exact) return { option: exact, negated: false };
  if (name.startsWith('no-')) {
    const positive = byLong.get(name.slice(3));
    if (positive && !positive.takesArg) return { option: positive, negated: true };
  }
  const candidates = OPTIONS.filter((o) => o.long.startsWith(name));
  if (candidates.length === 1) return { option: candidates[0]!, negated: false };
  return undefined;
}

export function lookupShort(letter: string): CurlOption | undefined {
  return byShort.get(letter);
}
