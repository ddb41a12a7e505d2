/**
 * How far connecting got when the time limit (`settings.timeoutMs`) ended it, for its message:
 * a host that never accepted the connection, or a TLS handshake that never finished (a
 * plaintext server given a TLS URL waits in silence for more bytes, so "no complete response"
 * sent users looking at the answer instead of the scheme). One wording for the kinds that
 * connect over TCP or TLS themselves (TCP, DNS over TCP and TLS, MQTT).
 */
import type net from 'node:net';
import { SendError } from './send-error.js';

export type ConnectStage = 'connecting' | 'handshake' | 'connected';

/** Follows `socket` (a net or TLS socket, not yet connected) through connecting and, when `secure`, its TLS handshake. */
export function followConnect(socket: net.Socket, secure: boolean): () => ConnectStage {
  let stage: ConnectStage = 'connecting';
  socket.once('connect', () => {
    if (stage === 'connecting') stage = secure ? 'handshake' : 'connected';
  });
  if (secure) socket.once('secureConnect', () => (stage = 'connected'));
  return () => stage;
}

/**
 * The time limit's error with what connecting had reached in place of "no complete response":
 * `who` names the peer (`127.0.0.1:853`, `the MQTT broker at 127.0.0.1:8883`), `tlsHint` says
 * what to do about a handshake that never finished, `connectedHint` (optional) what the peer
 * had not done once connected (else the error stays as it is).
 */
export function connectTimeout(error: SendError, stage: ConnectStage, who: string, tlsHint: string, connectedHint?: string): SendError {
  if (error.kind !== 'timeout' || (stage === 'connected' && !connectedHint)) return error;
  const said =
    stage === 'connecting'
      ? `${who} had not accepted the connection by then; check the host and port, and that no firewall drops the connection.`
      : stage === 'handshake'
        ? `${who} accepted the connection but had not finished the TLS handshake by then; ${tlsHint}`
        : `${who} ${connectedHint}`;
  return new SendError(error.message.replace(/; no complete response by then\.$/, `; ${said}`), 'timeout');
}
