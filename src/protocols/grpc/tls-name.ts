/**
 * grpc-js sends the target's host as the TLS server name (SNI) even when it is an IP address
 * (`grpcs://127.0.0.1:50051`), which RFC 6066 does not allow, and Node answers it with a
 * DeprecationWarning (DEP0123) on stderr, in the middle of a run's output. An IP target gets no
 * server name, as Node's https and Ferry's other kinds send none; the certificate is still checked
 * against the address (Node checks the host when there is no server name).
 */
import net from 'node:net';
import type tls from 'node:tls';
import type { ChannelCredentials } from '@grpc/grpc-js';

type Connector = { connectionOptions?: tls.ConnectionOptions };
type WithConnector = { _createSecureConnector?: (...args: unknown[]) => Connector };

export function withoutIpServername(credentials: ChannelCredentials): ChannelCredentials {
  const inner = credentials as unknown as WithConnector;
  const create = inner._createSecureConnector?.bind(inner);
  if (create === undefined) return credentials; // another grpc-js: its own behaviour, warning and all
  inner._createSecureConnector = (...args: unknown[]) => {
    const connector = create(...args);
    const name = connector.connectionOptions?.servername;
    if (name !== undefined && net.isIP(name) !== 0) delete connector.connectionOptions!.servername;
    return connector;
  };
  return credentials;
}
