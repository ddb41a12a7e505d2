/**
 * Ferry's local servers (spec 2.11, 4.8, 6.2, 8.2): server kinds by transport (the shared HTTP
 * listener, or a socket of their own) in one table, TLS (HTTP/2 by ALPN), hot reload of edited
 * server files and a bounded traffic log of one record shape for every kind.
 */
export { startServer, type ServerEntry } from './server.js';
export { hasServer, serverIdOf, startServers, unknownServerMessage, type ServersHandle, type ServerFailure, type StartServersOptions } from './start-servers.js';
export { startWorkspaceServers, type WorkspaceServers, type WorkspaceServersOptions } from './workspace-servers.js';
export { TrafficLog, DEFAULT_TRAFFIC_CAPACITY, plainRecord, type TrafficListener } from './traffic.js';
export { ServerError } from './errors.js';
export { checkServerSettings } from './check-settings.js';
export { certificateFolder, CERT_FILE, KEY_FILE } from '../appdata/index.js';
export { countRecords, formatTrafficLine, trafficLineMaxBytes, writeTrafficLine } from './format.js';
export { exposureWarning } from './exposure.js';
export { isServerKindBuilt, loadServerKind, NEW_SERVER_KIND_PICKED, NEW_SERVER_KINDS, SERVER_KIND_INFO, SERVER_KIND_MODULES, serverKindModule } from './kinds/index.js';
export type { BindOptions, ClientInfo, HttpKindInstance, KindContext, KindSettings, PushOptions, SendForm, ServerKindInfo, ServerKindModule, ServerKindTable, SocketKindInstance } from './kinds/index.js';
export { bindFailure, type Listener } from './listener.js';
export type { RunningServer, ServerOptions, ServerNotice, TrafficDirection, TrafficRecord } from './types.js';
export type { HttpExchangeDetail, HttpExchangeNote, HttpExchangeRecord } from './http-traffic.js';
