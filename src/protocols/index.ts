/** The wire: one module per request kind behind one table (registry.ts), and their shared parts. */
export type { ProtocolResult, ProtocolTimings, RequestKindModule, SendContext } from './kind.js';
export { allRequestKinds, noLiveConnection, notRunYet, requestKind } from './registry.js';
export { SendError, TIMEOUT_SETTING, type SendErrorKind } from './send-error.js';
export { encodeMultipart, withMultipartType } from './http/multipart.js';
export { defaultHeaders } from './http/default-headers.js';
export { cookieOfDomain, CookieStore, type CookieInfo } from './http/cookie-jar.js';
export { HttpAgents, type HostLookup } from './http/http-agents.js';
export { resolveProxyConfig, type ProxyConfig } from './http/proxy-rules.js';
export { DEFAULT_STREAM, MAX_KEPT_MESSAGES, MessageStream, frameText, type MessageInput, type StreamMessage, type StreamSettings, type StreamStop, type StreamSummary } from './stream/messages.js';
export { commandWords, PROGRAM_ALLOW_HINT, programRefused, ProgramRefusedError, type ProgramPolicy, type ProgramSpec } from './programs.js';
export type { CatalogApply, CatalogEntry, CatalogForm, KindCatalog } from './catalog.js';
export { graphqlOperation, type GraphqlOperation } from './http/graphql-subscription/operation.js';
export { checkOutgoing, outgoingBytes } from './live/outgoing.js';
export { MESSAGE_FORMATS, type ComposerField, type ComposerSpec, type ConnectHandlers, type ConnectionEnd, type ConnectionInfo, type LiveConnection, type LiveOperation, type MessageFormat, type OutgoingMessage } from './live/types.js';
