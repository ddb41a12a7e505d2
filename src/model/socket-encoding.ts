/**
 * How TCP and UDP payload text is written (spec 2.11 `encoding`): `text` as is, or `hex`, byte
 * pairs separated by spaces. Servers' greetings and replies and requests' bodies read it alike.
 */
import { oneOf } from './declare.js';

export const SOCKET_ENCODINGS = ['text', 'hex'] as const;
export type SocketEncoding = (typeof SOCKET_ENCODINGS)[number];

export const encodingField = () => oneOf(SOCKET_ENCODINGS).default('text');
