/** A request file, `requests/**\/*.yaml` (spec 2.3, 2.8). */
import { z } from 'zod';
import { flag, integer, list, number, oneOf, section, text } from './declare.js';
import { authSchema, bodySchema, keyValues, scriptsSchema, settingsSchema } from './common.js';
import { framingFields } from './socket-framing.js';
import { encodingField } from './socket-encoding.js';

import { DEFAULT_SEQ, REQUEST_KINDS, type RequestKind } from './constants.js';

export { REQUEST_KINDS, type RequestKind } from './constants.js';
/** The kind of a request that names none. */
export const DEFAULT_REQUEST_KIND: RequestKind = 'http';

export const socketOptionsSchema = section({
  ...framingFields(),
  broadcast: flag().default(false),
  /** How `body.text` is read: as text, or hex byte pairs (the servers' `encoding`); received messages are shown the same way. */
  encoding: encodingField(),
});

export const dnsOptionsSchema = section({
  server: text().default(''),
  recursion: flag().default(true),
});

export const mqttOptionsSchema = section({
  clientId: text().default(''),
  version: oneOf(['v311', 'v5']).default('v311'),
  cleanSession: flag().default(true),
  keepAliveSecs: integer(0, 65535).default(30),
  subscriptions: list(section({ topic: text().default(''), qos: integer(0, 2).default(0), enabled: flag().default(true) })).default([]),
  topic: text().default(''),
  qos: integer(0, 2).default(0),
  retain: flag().default(false),
});

export const grpcOptionsSchema = section({
  protoFiles: list(text()).default([]),
  importPaths: list(text()).default([]),
});

export const socketioOptionsSchema = section({
  path: text().default('/socket.io/'),
  transport: oneOf(['auto', 'websocket', 'polling']).default('auto'),
  auth: text().default(''),
  event: text().default(''),
  ack: flag().default(false),
});

export const mcpOptionsSchema = section({
  transport: oneOf(['auto', 'streamableHttp', 'sse', 'stdio']).default('auto'),
  call: oneOf(['tool', 'resource', 'prompt']).default('tool'),
  name: text().default(''),
  arguments: text().default(''),
  cwd: text().default(''),
  env: list(section({ key: text().default(''), value: text().default(''), enabled: flag().default(true) })).default([]),
});

export const requestOpenApiSchema = section({
  operation: text().optional(),
  removed: flag().optional(),
});

/** A saved response kept as an example (from collection imports; bodies up to 1 MB). */
export const exampleSchema = section({
  name: text().default(''),
  status: integer(0, 999).optional(),
  headers: keyValues(),
  body: text().optional(),
});

export const requestSchema = section({
  name: text().default(''),
  kind: oneOf(REQUEST_KINDS).default(DEFAULT_REQUEST_KIND),
  seq: number().default(DEFAULT_SEQ),
  method: text().default('GET'),
  url: text().default(''),
  disabledParams: keyValues(),
  pathParams: keyValues(),
  paramDescriptions: keyValues(),
  headers: keyValues(),
  body: bodySchema,
  auth: authSchema('inherit'),
  settings: settingsSchema.optional(),
  scripts: scriptsSchema.optional(),
  socket: socketOptionsSchema.optional(),
  dns: dnsOptionsSchema.optional(),
  mqtt: mqttOptionsSchema.optional(),
  grpc: grpcOptionsSchema.optional(),
  socketio: socketioOptionsSchema.optional(),
  mcp: mcpOptionsSchema.optional(),
  docs: text().optional(),
  openapi: requestOpenApiSchema.optional(),
  examples: list(exampleSchema).default([]),
});
export type RequestFile = z.output<typeof requestSchema>;
export type RequestExample = z.output<typeof exampleSchema>;
