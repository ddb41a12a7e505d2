/**
 * A DNS server's address as people and node's `dns.getServers()` write it, for the DNS client's
 * `dns.server` (and the system resolver's servers) and the DNS server's `upstream`: `1.1.1.1`,
 * `127.0.0.1:5353`, `::1` (an IPv6 address alone, its colons not a port) or `[::1]:5353`.
 */
import dns from 'node:dns';
import net from 'node:net';

/** The host and the port as written (undefined when none is); neither is checked here. */
export function splitDnsAddress(text: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, ...(bracketed[2] !== undefined ? { port: bracketed[2] } : {}) };
  if (net.isIPv6(text)) return { host: text };
  const colon = text.lastIndexOf(':');
  return colon < 0 ? { host: text } : { host: text.slice(0, colon), port: text.slice(colon + 1) };
}

/**
 * The name servers this computer is configured with (resolv.conf, as node read it), in order.
 * Through `dns.getServers`, read when called: node rebinds it when the servers are set, so a
 * named import of it would keep the first list.
 */
export function systemDnsServers(): Array<{ host: string; port: number }> {
  return dns.getServers().flatMap((text) => {
    const { host, port } = splitDnsAddress(text);
    return net.isIP(host) ? [{ host, port: port === undefined ? 53 : Number(port) }] : [];
  });
}

/** `127.0.0.1:53`, `[::1]:53`: an address with its port, IPv6 in brackets. */
export function dnsAddressLabel(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}
