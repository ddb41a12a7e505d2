/** Pieces shared by several resources: key/value rows, variables, scripts, auth, body, settings (spec 2.4–2.7, 2.10). */
import { z } from 'zod';
import { describe, fieldsAsWritten, flag, integer, keptWhenEmpty, list, oneOf, section, text } from './declare.js';
import { MAX_TIMER_MS } from './constants.js';
import { requestLevelFields } from './app-settings.js';

export const keyValueSchema = section({
  key: text().default(''),
  value: text().default(''),
  enabled: flag().default(true),
  description: text().default(''),
});
export type KeyValue = z.output<typeof keyValueSchema>;

/** A row with every field at its default: what a row built in code starts from. */
export const KEY_VALUE_DEFAULTS: KeyValue = keyValueSchema.parse({});

export const keyValues = () => list(keyValueSchema).default([]);

export const variableSchema = section({
  key: text(),
  value: text().default(''),
  enabled: flag().default(true),
  secret: flag().default(false),
});
export type Variable = z.output<typeof variableSchema>;

export const scriptsSchema = section({
  preRequest: text().optional(),
  postResponse: text().optional(),
});
export type Scripts = z.output<typeof scriptsSchema>;

/**
 * Two scripts in one script field. Postman items may carry two scripts of one event (a hand-made
 * collection's two `test` events), and Newman runs them apart: each in its own scope, an error in
 * one leaving the next running. The format has one text per phase, so a line of its own between
 * them keeps them apart: the runner runs each part as a script of its own, in order (docs/scripts.md).
 */
export const SCRIPT_BREAK = '// ---- next script ----';

export interface ScriptPart {
  code: string;
  /** The line of the field the part starts on (1-based). */
  line: number;
}

/** A script field's parts, split at SCRIPT_BREAK lines (spaces around it allowed); one part when there is none. */
export function scriptParts(code: string): ScriptPart[] {
  if (!code.includes(SCRIPT_BREAK)) return [{ code, line: 1 }];
  const lines = code.split('\n');
  const parts: ScriptPart[] = [];
  let start = 0;
  lines.forEach((text, i) => {
    if (text.trim() !== SCRIPT_BREAK) return;
    parts.push({ code: lines.slice(start, i).join('\n'), line: start + 1 });
    start = i + 1;
  });
  parts.push({ code: lines.slice(start).join('\n'), line: start + 1 });
  return parts;
}

// ---- Auth (2.6) -----------------------------------------------------------------------------

export const OAUTH2_REDIRECT_URI = 'http://127.0.0.1:53682/callback';

const authVariant = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  section({ type: z.literal(type), ...shape });

/** Types that come from imports (spec 5.5): Ferry sends them all; Digest's and AWS's fields stay as written. */
export const IMPORTED_AUTH_TYPES = ['digest', 'ntlm', 'awsv4', 'oauth1', 'jwt', 'hawk', 'edgegrid', 'asap'] as const;
export const AUTH_TYPES = ['inherit', 'none', 'basic', 'bearer', 'apiKey', 'oauth2', ...IMPORTED_AUTH_TYPES] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const oauth2Fields = {
  grantType: oneOf(['clientCredentials', 'password', 'authorizationCode']).default('clientCredentials'),
  tokenUrl: text().optional(),
  authUrl: text().optional(),
  redirectUri: text().default(OAUTH2_REDIRECT_URI),
  clientId: text().optional(),
  clientSecret: text().optional(),
  scope: text().optional(),
  audience: text().optional(),
  username: text().optional(),
  password: text().optional(),
  clientAuth: oneOf(['basicHeader', 'body']).default('basicHeader'),
  pkce: flag().default(true),
  headerPrefix: text().default('Bearer'),
};

// The signing types use the field names of collection exports, so an import fills them as they are
// (docs/running.md, "Auth that is signed when sending"). Key files are paths relative to the workspace folder.

export const OAUTH1_SIGNATURE_METHODS = ['HMAC-SHA1', 'HMAC-SHA256', 'HMAC-SHA512', 'PLAINTEXT', 'RSA-SHA1', 'RSA-SHA256', 'RSA-SHA512'] as const;
export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;
export const ASAP_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;

export const oauth1Fields = {
  signatureMethod: oneOf(OAUTH1_SIGNATURE_METHODS).default('HMAC-SHA1'),
  consumerKey: text().default(''),
  consumerSecret: text().default(''),
  token: text().default(''),
  tokenSecret: text().default(''),
  /** RSA methods: the PEM private key as text (a secret variable works), or `privateKeyFile`. */
  privateKey: text().optional(),
  privateKeyFile: text().optional(),
  callback: text().optional(),
  verifier: text().optional(),
  realm: text().optional(),
  version: text().default('1.0'),
  /** Empty: a fresh one on every send. */
  nonce: text().optional(),
  timestamp: text().optional(),
  /** `false`: the parameters go in a URL-encoded body when the request has one, else in the query. */
  addParamsToHeader: flag().default(true),
  addEmptyParamsToSign: flag().default(false),
  includeBodyHash: flag().default(false),
  /** `true`: the Authorization header's realm, names and values as they are, not percent-encoded (Postman's option, for servers that read them so). */
  disableHeaderEncoding: flag().default(false),
};

export const ntlmFields = {
  username: text().default(''),
  password: text().default(''),
  domain: text().default(''),
  workstation: text().default(''),
};

export const jwtFields = {
  algorithm: oneOf(JWT_ALGORITHMS).default('HS256'),
  secret: text().optional(),
  isSecretBase64Encoded: flag().default(false),
  privateKey: text().optional(),
  privateKeyFile: text().optional(),
  /** JSON object of claims. */
  payload: text().default('{}'),
  /** JSON object of extra protected-header fields. */
  header: text().default('{}'),
  addTokenTo: oneOf(['header', 'queryParam']).default('header'),
  headerPrefix: text().default('Bearer'),
  queryParamKey: text().default('token'),
};

export const hawkFields = {
  authId: text().default(''),
  authKey: text().default(''),
  algorithm: oneOf(['sha256', 'sha1']).default('sha256'),
  user: text().optional(),
  nonce: text().optional(),
  extraData: text().optional(),
  app: text().optional(),
  delegation: text().optional(),
  timestamp: text().optional(),
  includePayloadHash: flag().default(false),
};

export const edgegridFields = {
  accessToken: text().default(''),
  clientToken: text().default(''),
  clientSecret: text().default(''),
  /** The API host the credentials were issued for; empty signs the request URL's own host. */
  baseURL: text().optional(),
  /** Header names, comma-separated, in the order they are signed. */
  headersToSign: text().optional(),
  maxBodySize: integer(0).default(131072),
  nonce: text().optional(),
  timestamp: text().optional(),
};

export const asapFields = {
  alg: oneOf(ASAP_ALGORITHMS).default('RS256'),
  iss: text().default(''),
  sub: text().optional(),
  aud: text().default(''),
  kid: text().default(''),
  privateKey: text().optional(),
  privateKeyFile: text().optional(),
  /** JSON object of extra claims; they win over the fields above. */
  claims: text().optional(),
  /** Seconds the token is valid. */
  exp: text().default('3600'),
};

const authVariants = [
  authVariant('inherit', {}),
  authVariant('none', {}),
  authVariant('basic', { username: text().default(''), password: text().default('') }),
  authVariant('bearer', { token: text().default(''), prefix: text().default('Bearer') }),
  authVariant('apiKey', { key: text().default(''), value: text().default(''), location: oneOf(['header', 'query']).default('header') }),
  authVariant('oauth2', oauth2Fields),
  authVariant('oauth1', oauth1Fields),
  authVariant('ntlm', ntlmFields),
  authVariant('jwt', jwtFields),
  authVariant('hawk', hawkFields),
  authVariant('edgegrid', edgegridFields),
  authVariant('asap', asapFields),
  // Digest and AWS Signature V4 keep the collection's field names as written (see request/auth.ts).
  fieldsAsWritten(authVariant('digest', {})),
  fieldsAsWritten(authVariant('awsv4', {})),
] as const;

const authUnion = z.discriminatedUnion('type', authVariants as unknown as [z.ZodObject, ...z.ZodObject[]], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `auth type must be one of ${AUTH_TYPES.join(', ')}, got ${describe((issue.input as { type?: unknown } | undefined)?.type)}`
      : `expected a mapping with a type, got ${describe(issue.input)}`,
});

/** An auth object whose `type` defaults to `fallback` (`inherit` for requests and folders, `none` for the workspace). */
export const authSchema = (fallback: 'inherit' | 'none') =>
  z.preprocess((input) => {
    if (input === undefined || input === null) return { type: fallback };
    if (typeof input === 'object' && !Array.isArray(input) && !('type' in input)) return { ...input, type: fallback };
    return input;
  }, authUnion).default({ type: fallback });

export interface Auth {
  type: AuthType;
  [field: string]: unknown;
}

// ---- Body (2.5) -----------------------------------------------------------------------------

export const BODY_TYPES = ['none', 'json', 'text', 'xml', 'formUrlencoded', 'multipart', 'binary', 'graphql'] as const;

export const multipartPartSchema = section({
  key: text().default(''),
  value: text().default(''),
  file: flag().default(false),
  contentType: text().optional(),
  enabled: flag().default(true),
});

export const graphqlSchema = section({
  query: text().default(''),
  variables: text().default(''),
  operationName: text().default(''),
  transport: oneOf(['websocket', 'websocketLegacy', 'sse']).optional(),
  subscriptionUrl: text().optional(),
  connectionParams: text().optional(),
});

export const bodySchema = section({
  type: oneOf(BODY_TYPES).default('none'),
  text: text().optional(),
  contentType: text().default('text/plain'),
  form: keyValues(),
  multipart: list(multipartPartSchema).default([]),
  file: text().optional(),
  graphql: graphqlSchema.optional(),
}).default({ type: 'none', contentType: 'text/plain', form: [], multipart: [] });
export type Body = z.output<typeof bodySchema>;
export type MultipartPart = z.output<typeof multipartPartSchema>;

// ---- Settings (2.7) -------------------------------------------------------------------------

/** The application settings a request may override (declared in app-settings.ts), then the run rules. */
export const settingsSchema = section({
  ...requestLevelFields(),
  /** `false`: this request goes direct, past the application's proxy. */
  proxy: z.literal(false, { error: 'expected false (send directly, without the proxy); the proxy itself is an application setting' }).optional(),
  // Present means on, also with every field at its default (an empty condition: until the tests pass).
  repeat: keptWhenEmpty(section({
    condition: text().default(''),
    intervalMs: integer(0, MAX_TIMER_MS).default(1000),
    timeoutMs: integer(0, MAX_TIMER_MS).default(30000),
  }).optional()),
  stream: section({
    event: text().optional(),
    maxEvents: integer(0).default(100),
    timeoutMs: integer(0, MAX_TIMER_MS).default(10000),
  }).optional(),
});
export type RequestSettings = z.output<typeof settingsSchema>;
