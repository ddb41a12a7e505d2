/** Every auth type of spec 2.6 with its fields; imported-only types keep their settings as written. */
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
const DEFAULTS: Record<string, Auth> = {
  basic: { type: 'basic', username: '', password: '' },
  bearer: { type: 'bearer', token: '', prefix: 'Bearer' },
  apiKey: { type: 'apiKey', key: '', value: '', location: 'header' },
  oauth2: { type: 'oauth2', grantType: 'clientCredentials', redirectUri: 'http://127.0.0.1:53682/callback', clientAuth: 'basicHeader', pkce: true, headerPrefix: 'Bearer' },
};

export function AuthEditor({ auth, onChange }: { auth: Auth; onChange: (a: Auth) => void }) {
  const types = TYPES.includes(auth.type) ? TYPES : [...TYPES, auth.type];
  return (
    <div className="auth-editor">
      <label className="inline">
        Auth
        <select aria-label="Auth type" value={auth.type} onChange={(e) => onChange(DEFAULTS[e.target.value] ?? { type: e.target.value })}>
          {types.map((t) => <option key={t}>{t}</option>)}
        </select>
      </label>
      {auth.type === 'inherit' && <p className="muted">Uses the nearest folder's auth, else the workspace's.</p>}
      {!TYPES.includes(auth.type) && <p className="muted">Imported auth type: its settings are kept as written in the file.</p>}
      <div className="form-grid">
        {(FIELDS[auth.type] ?? []).map(([key, label, choices]) => (
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
        {auth.type === 'oauth2' && (
          <label className="check"><input type="checkbox" checked={auth.pkce !== false} onChange={(e) => onChange({ ...auth, pkce: e.target.checked })} /> PKCE (S256)</label>
        )}
      </div>
      {auth.type === 'oauth2' && <p className="muted">The token is fetched on Send and cached on this computer, never in the workspace.</p>}
    </div>
  );
}
