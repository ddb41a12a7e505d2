/** The host and port of a `tcp://`, `tls://` or `udp://` URL, checked before anything is sent. */
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError } from '../send-error.js';
import { wherePrefix } from './options.js';

export interface SocketTarget {
  /** As typed, brackets of an IPv6 address removed. */
  hostname: string;
  port: number;
  /** `host:port` for messages. */
  host: string;
  secure: boolean;
}

export function socketTarget(prepared: PreparedRequest): SocketTarget {
  const url = new URL(prepared.url);
  const where = wherePrefix(prepared);
  if (url.port === '') {
    throw new SendError(`${where}${url.protocol}//${url.host} has no port; ${prepared.kind} URLs name one (${url.protocol}//${url.hostname || 'host'}:9000).`, 'invalid');
  }
  const port = Number(url.port);
  if (port < 1 || port > 65535) throw new SendError(`${where}port ${port} is out of range; give a port from 1 to 65535.`, 'invalid');
  if (url.pathname.replace(/^\/$/, '') !== '' || url.search || url.hash) {
    throw new SendError(`${where}a ${prepared.kind} URL is ${url.protocol}//host:port only; remove "${url.pathname.replace(/^\/$/, '')}${url.search}${url.hash}".`, 'invalid');
  }
  return { hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, host: url.host, secure: url.protocol === 'tls:' };
}
