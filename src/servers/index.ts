/**
 * Ferry's local servers (spec 2.11, 4.8, 6.2, 8.2): the HTTP mock API and the SSE server, with
 * TLS (HTTP/2 by ALPN), hot reload of edited server files and a bounded traffic log.
 */
export { startServer, type ServerEntry } from './server.js';
export { startServers, type ServersHandle, type ServerFailure, type StartServersOptions } from './start-servers.js';
export { TrafficLog, DEFAULT_TRAFFIC_CAPACITY, type TrafficListener } from './traffic.js';
export { ServerError } from './errors.js';
export { certificateFolder, CERT_FILE, KEY_FILE } from '../appdata/index.js';
export { formatTrafficLine } from './format.js';
export { exposureWarning } from './exposure.js';
export { SERVER_KIND_MODULES } from './kinds/index.js';
export type { RunningServer, ServerOptions, ServerNotice, TrafficRecord } from './types.js';
