/** Every auth type of spec 2.6 with its fields; imported-only types keep their settings as written. */
import { useEffect, useRef, useState } from 'react';
import type { InheritedAuthView, TokenResponse } from '../shared/api.js';
import { newId, onSignIn, openSignIn } from './sign-in.js';
import { shownName } from '../../support/shown-name.js';

type Auth = { type: string; [field: string]: unknown };

const TYPES = ['inherit', 'none', 'basic', 'bearer', 'apiKey', 'oauth2'];
const FIELDS: Record<string, Array<[string, string, string[]?]>> = {
  basic: [['username', 'Username'], ['password', 'Password']],
  bearer: [['token', 'Token'], ['prefix', 'Prefix']],
  apiKey: [['key', 'Key'], ['value', 'Value'], ['location', 'Add to', ['header', 'query']]],
  oauth2: [
    ['grantType', 'Grant type', ['clientCredentials', 'password', 'authorizationCode']],
    ['tokenUrl', 'Token URL'], ['authUrl', 'Authorization URL'], ['redirectUri', 'Redirect URI'],
    ['clientId', 'Client ID'], ['clientSecret', 'Client secret'], ['scope', 'Scope'], ['audience', 'Audience'],
    ['username', 'Username'], ['password', 'Password'],
    ['clientAuth', 'Client authentication', ['basicHeader', 'body']], ['headerPrefix', 'Header prefix'],
  ],
};
/**
 * The OAuth 2.0 fields that apply to one grant only (spec 2.6); the others apply to every grant.
 * The form shows the chosen grant's fields only, as Postman and Insomnia do; the values of the
 * hidden ones stay in the auth (and so in the file) for when the grant is switched back.
 */
const GRANT_ONLY: Record<string, string> = {
  authUrl: 'authorizationCode', redirectUri: 'authorizationCode', pkce: 'authorizationCode',
  username: 'password', password: 'password',
};

/** Whether `key` of `auth` is a field the form shows for its type (and grant). */
function applies(auth: Auth, key: string): boolean {
  if (auth.type !== 'oauth2' || !(key in GRANT_ONLY)) return true;
  return GRANT_ONLY[key] === (auth.grantType ?? 'clientCredentials');
}

/** The hidden OAuth 2.0 fields of other grants that hold a value of their own (not the default): kept in the file, unused. */
function keptFields(auth: Auth): string[] {
  if (auth.type !== 'oauth2') return [];
  const defaults = DEFAULTS.oauth2 as Auth;
  return Object.keys(GRANT_ONLY).filter((key) => key !== 'pkce' && !applies(auth, key) && auth[key] !== undefined && auth[key] !== '' && auth[key] !== defaults[key]);
}

const DEFAULTS: Record<string, Auth> = {
  basic: { type: 'basic', username: '', password: '' },
  bearer: { type: 'bearer', token: '', prefix: 'Bearer' },
  apiKey: { type: 'apiKey', key: '', value: '', location: 'header' },
  oauth2: { type: 'oauth2', grantType: 'clientCredentials', redirectUri: 'http://127.0.0.1:53682/callback', clientAuth: 'basicHeader', pkce: true, headerPrefix: 'Bearer' },
};

/** "in 59 min", "in 2 h 5 min", "in 45 s": how long a token has left. */
export function expiresIn(seconds: number): string {
  if (seconds <= 0) return 'already expired';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  return `in ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

function tokenLine(token: TokenResponse): string {
  const where = token.source === 'request' ? '' : ` (auth of ${token.source.replace(/^folder:/, 'folder ')})`;
  const expiry = token.expiresInSeconds === undefined ? 'no expiry given' : `expires ${expiresIn(token.expiresInSeconds)}`;
  return `${token.cached ? 'Token cached' : 'Token obtained'}${where}, ${expiry}: ${token.masked}`;
}

/** Fetches the token (`id`: the call's, for its sign-in page; `signal`: Cancel). */
export type GetTokenCall = (id: string, signal: AbortSignal) => Promise<TokenResponse>;

interface TokenState {
  busy: boolean;
  /** The provider's sign-in page the authorization code grant waits on. */
  signIn?: string;
  text?: string;
  error?: boolean;
}

/**
 * "Get token": fetches the token as a send would (the request is not sent) and says how long it
 * lasts. The authorization code grant opens the provider's sign-in page and waits, with Cancel.
 */
// Keyed by the auth's settings: an edit clears what the last click said.
function GetToken({ onGetToken }: { onGetToken: GetTokenCall }) {
  const [state, setState] = useState<TokenState>({ busy: false });
  const call = useRef<AbortController | null>(null);
  // Closing the editor (or the dialog) stops waiting for a sign-in nobody will see end.
  useEffect(() => () => call.current?.abort(), []);
  const run = async () => {
    const id = newId();
    const controller = (call.current = new AbortController());
    setState({ busy: true });
    const stop = onSignIn(id, (signIn) => {
      openSignIn(signIn);
      setState((s) => ({ ...s, signIn }));
    });
    try {
      const token = await onGetToken(id, controller.signal);
      setState({ busy: false, text: tokenLine(token) });
    } catch (error) {
      if (controller.signal.aborted) setState({ busy: false, text: 'Cancelled: no token was fetched.' });
      else setState({ busy: false, text: (error as Error).message, error: true });
    } finally {
      stop();
      if (call.current === controller) call.current = null;
    }
  };
  return (
    <div className="get-token">
      <button onClick={() => void run()} disabled={state.busy}>{state.busy ? 'Getting token…' : 'Get token'}</button>
      {state.busy && state.signIn && (
        <span role="status" data-testid="token-sign-in">
          Sign in in the window that opened; Ferry goes on when the provider sends you back.{' '}
          <a href={state.signIn} target="_blank" rel="noopener noreferrer">Open the sign-in page</a>
        </span>
      )}
      {state.busy && <button aria-label="Cancel Get token" onClick={() => call.current?.abort()}>Cancel</button>}
      {state.text && <span role="status" data-testid="token-status" className={state.error ? 'error' : 'ok'}>{state.text}</span>}
    </div>
  );
}

/** What `inherit` gives now, and the way to the settings it comes from. */
function Inherited({ inherited, onOpenSettings }: { inherited: InheritedAuthView; onOpenSettings?: (folder: string) => void }) {
  const fromFolder = inherited.source === 'folder';
  return (
    <>
      : now <strong>{inherited.type}</strong>, from {fromFolder ? `folder “${shownName(inherited.name)}”` : 'the workspace'}.
      {onOpenSettings && <> <button className="link" onClick={() => onOpenSettings(inherited.folder ?? '')}>{fromFolder ? 'Folder settings…' : 'Workspace settings…'}</button></>}
    </>
  );
}

/**
 * `noInherit`: the workspace file's auth, which has nothing above it to inherit (its default is
 * none). `inherited`: what `inherit` gives now (the request editor asks the server).
 */
export function AuthEditor({ auth, onChange, onGetToken, noInherit = false, inherited, onOpenSettings }: {
  auth: Auth;
  onChange: (a: Auth) => void;
  onGetToken?: GetTokenCall;
  noInherit?: boolean;
  inherited?: InheritedAuthView | null;
  onOpenSettings?: (folder: string) => void;
}) {
  // The settings of each type left while editing, so that switching back (a slip of the type
  // select) brings them back, as Postman does; only the chosen type's are saved.
  const left = useRef<Record<string, Auth>>({});
  const switchType = (type: string) => {
    left.current[auth.type] = auth;
    onChange(left.current[type] ?? DEFAULTS[type] ?? { type });
  };
  const offered = noInherit ? TYPES.filter((t) => t !== 'inherit') : TYPES;
  const types = offered.includes(auth.type) ? offered : [...offered, auth.type];
  return (
    <div className="auth-editor">
      <label className="inline">
        Auth
        <select aria-label="Auth type" value={auth.type} onChange={(e) => switchType(e.target.value)}>
          {types.map((t) => <option key={t}>{t}</option>)}
        </select>
      </label>
      {auth.type === 'inherit' && (
        <p className="muted" data-testid="inherited-auth">
          Uses the nearest folder's auth, else the workspace's{inherited ? <Inherited inherited={inherited} onOpenSettings={onOpenSettings} /> : '.'}
        </p>
      )}
      {!TYPES.includes(auth.type) && <p className="muted">Imported auth type: its settings are kept as written in the file.</p>}
      <div className="form-grid">
        {(FIELDS[auth.type] ?? []).filter(([key]) => applies(auth, key)).map(([key, label, choices]) => (
          <label key={key}>
            {label}
            {choices ? (
              <select aria-label={`Auth ${label}`} value={String(auth[key] ?? choices[0])} onChange={(e) => onChange({ ...auth, [key]: e.target.value })}>
                {choices.map((c) => <option key={c}>{c}</option>)}
              </select>
            ) : (
              <input
                aria-label={`Auth ${label}`}
                type={/password|secret/i.test(key) ? 'password' : 'text'}
                value={String(auth[key] ?? '')}
                onChange={(e) => onChange({ ...auth, [key]: e.target.value === '' && DEFAULTS[auth.type]?.[key] === undefined ? undefined : e.target.value })}
              />
            )}
          </label>
        ))}
        {auth.type === 'oauth2' && applies(auth, 'pkce') && (
          <label className="check"><input type="checkbox" checked={auth.pkce !== false} onChange={(e) => onChange({ ...auth, pkce: e.target.checked })} /> PKCE (S256)</label>
        )}
      </div>
      {keptFields(auth).length > 0 && (
        <p className="muted" data-testid="auth-kept-fields">
          Kept in the file for another grant, not used by {String(auth.grantType ?? 'clientCredentials')}: {keptFields(auth).join(', ')}.
        </p>
      )}
      {auth.type === 'oauth2' && <p className="muted">The token is fetched on Send{onGetToken ? ' (or with Get token)' : ''} and cached on this computer, never in the workspace.</p>}
      {(auth.type === 'oauth2' || auth.type === 'inherit') && onGetToken && <GetToken key={JSON.stringify(auth)} onGetToken={onGetToken} />}
    </div>
  );
}
