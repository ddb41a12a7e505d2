/**
 * A small real OAuth 2.0 authorization server for the tests: client credentials, password,
 * authorization code with PKCE (S256 checked), refresh tokens; Basic or form client auth.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { listenLoopback } from './listen.js';

export interface AuthServer {
  url: string;
  /** Grants answered, by grant type. */
  grants: Record<string, number>;
  /** How the client authenticated at the last token request: `basic`, `body` or `none`. */
  lastClientAuth?: string;
  lastParams?: URLSearchParams;
  /** Seconds the next tokens live. */
  expiresIn: number;
  /** A refresh answers a new refresh token and the one used stops working (refresh token rotation, RFC 9700 4.14.2). */
  rotate?: boolean;
  /** The next refresh request is answered only once this settles (then it is cleared): a slow answer, for races. */
  holdNextRefresh?: Promise<void>;
  close(): Promise<void>;
}

const CLIENTS: Record<string, string | undefined> = { app: 'shh', spa: undefined };

/** `port`: 0 (default) for any free one. */
export async function startAuthServer(port = 0): Promise<AuthServer> {
  const codes = new Map<string, { challenge?: string; redirectUri: string; clientId: string }>();
  const refreshTokens = new Set<string>();
  const state: AuthServer = { url: '', grants: {}, expiresIn: 3600, close: async () => {} };
  let counter = 0;

  const issue = (res: http.ServerResponse, withRefresh: boolean, scope?: string) => {
    counter++;
    const body: Record<string, unknown> = { access_token: `token-${counter}`, token_type: 'Bearer', expires_in: state.expiresIn };
    if (withRefresh) {
      const refresh = `refresh-${counter}`;
      refreshTokens.add(refresh);
      body.refresh_token = refresh;
    }
    if (scope) body.scope = scope;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, error: string, description: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error, error_description: description }));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('response_type') !== 'code' || !(q.get('client_id')! in CLIENTS)) return fail(res, 400, 'invalid_request', 'bad authorize request');
      if (q.get('code_challenge') && q.get('code_challenge_method') !== 'S256') return fail(res, 400, 'invalid_request', 'S256 only');
      const code = randomBytes(8).toString('hex');
      codes.set(code, { challenge: q.get('code_challenge') ?? undefined, redirectUri: q.get('redirect_uri')!, clientId: q.get('client_id')! });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/token') return fail(res, 404, 'not_found', 'no such endpoint');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const p = new URLSearchParams(raw);
      state.lastParams = p;
      let clientId = p.get('client_id') ?? '';
      let secret = p.get('client_secret') ?? undefined;
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) {
        const [id, pass] = Buffer.from(basic[1]!, 'base64').toString().split(':').map((s) => decodeURIComponent(s));
        clientId = id!;
        secret = pass;
        state.lastClientAuth = 'basic';
      } else state.lastClientAuth = secret ? 'body' : 'none';
      if (!(clientId in CLIENTS) || CLIENTS[clientId] !== secret) return fail(res, 401, 'invalid_client', 'unknown client or wrong secret');
      const grant = p.get('grant_type') ?? '';
      state.grants[grant] = (state.grants[grant] ?? 0) + 1;
      switch (grant) {
        case 'client_credentials':
          return issue(res, false, p.get('scope') ?? undefined);
        case 'password':
          if (p.get('username') !== 'ada' || p.get('password') !== 'pw') return fail(res, 400, 'invalid_grant', 'wrong username or password');
          return issue(res, true);
        case 'authorization_code': {
          const entry = codes.get(p.get('code') ?? '');
          codes.delete(p.get('code') ?? '');
          if (!entry || entry.redirectUri !== p.get('redirect_uri') || entry.clientId !== clientId) return fail(res, 400, 'invalid_grant', 'bad code');
          if (entry.challenge) {
            const verifier = p.get('code_verifier') ?? '';
            if (createHash('sha256').update(verifier).digest('base64url') !== entry.challenge) return fail(res, 400, 'invalid_grant', 'PKCE verification failed');
          }
          return issue(res, true);
        }
        case 'refresh_token': {
          const answer = () => {
            if (!refreshTokens.has(p.get('refresh_token') ?? '')) return fail(res, 400, 'invalid_grant', 'unknown refresh token');
            if (state.rotate) refreshTokens.delete(p.get('refresh_token')!);
            return issue(res, state.rotate === true);
          };
          const hold = state.holdNextRefresh;
          state.holdNextRefresh = undefined;
          if (hold) return void hold.then(answer);
          return answer();
        }
        default:
          return fail(res, 400, 'unsupported_grant_type', grant);
      }
    });
  });
  const listening = await listenLoopback(server, 'http', '127.0.0.1', port);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
