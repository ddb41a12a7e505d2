/**
 * Security schemes to auth (spec 4.4 table): which auth a requirement becomes, and the
 * environment placeholders it needs. Secret placeholders are marked; their values stay empty.
 */
import type { ImportedRequestData, ImportedVariable } from '../types.js';
import { isObject, type JsonObject, type SpecVersion, type RefResolver } from '../../openapi-document/index.js';

export type ImportedAuth = NonNullable<ImportedRequestData['auth']>;

export interface AuthOutcome {
  auth: ImportedAuth;
  variables: ImportedVariable[];
  notes: string[];
}

const SECRET = new Set(['password', 'bearerToken', 'apiKey', 'clientSecret']);
const placeholder = (key: string): ImportedVariable => ({ key, value: '', ...(SECRET.has(key) ? { secret: true } : {}) });

type Converted = { auth: ImportedAuth; variables: ImportedVariable[]; note?: string } | { unsupported: string };

export class SecurityMapper {
  private readonly schemes: JsonObject;
  private readonly cache = new Map<string, AuthOutcome>();

  constructor(root: JsonObject, version: SpecVersion, private readonly refs: RefResolver) {
    const schemes = version === 'swagger2' ? root.securityDefinitions : isObject(root.components) ? root.components.securitySchemes : undefined;
    this.schemes = isObject(schemes) ? schemes : {};
  }

  /**
   * The auth for a `security` list (alternatives, each a set of schemes used together).
   * An empty list, or an empty alternative, means no auth.
   */
  map(security: unknown[]): AuthOutcome {
    const key = JSON.stringify(security);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const outcome = this.compute(security);
    this.cache.set(key, outcome);
    return outcome;
  }

  private compute(security: unknown[]): AuthOutcome {
    // An empty alternative makes auth optional: the first usable scheme is still imported.
    const alternatives = security.filter(isObject).filter((a) => Object.keys(a).length > 0);
    if (alternatives.length === 0) return { auth: { type: 'none' }, variables: [], notes: [] };
    const notes: string[] = [];
    for (const requirement of alternatives) {
      const names = Object.keys(requirement);
      const converted = names.map((name) => ({ name, result: this.convert(name) }));
      const usable = converted.find((c) => !('unsupported' in c.result));
      for (const c of converted) if ('unsupported' in c.result) notes.push(c.result.unsupported);
      if (!usable || 'unsupported' in usable.result) continue;
      if (names.length > 1) {
        notes.push(`The security requirement ${names.map((n) => `"${n}"`).join(' + ')} uses several schemes together; only "${usable.name}" was imported.`);
      }
      if (usable.result.note) notes.push(usable.result.note);
      return { auth: usable.result.auth, variables: usable.result.variables, notes };
    }
    return { auth: { type: 'none' }, variables: [], notes };
  }

  private convert(name: string): Converted {
    const scheme = this.refs.object(this.schemes[name]);
    if (!scheme) return { unsupported: `The security scheme "${name}" is not defined in the document; it was not imported.` };
    const type = String(scheme.type ?? '');
    const httpScheme = String(scheme.scheme ?? '').toLowerCase();
    if (type === 'basic' || (type === 'http' && httpScheme === 'basic')) {
      return { auth: { type: 'basic', username: '{{username}}', password: '{{password}}' }, variables: [placeholder('username'), placeholder('password')] };
    }
    if (type === 'http' && httpScheme === 'digest') {
      return { auth: { type: 'digest', username: '{{username}}', password: '{{password}}' }, variables: [placeholder('username'), placeholder('password')] };
    }
    if (type === 'http' && httpScheme === 'bearer') {
      return { auth: { type: 'bearer', token: '{{bearerToken}}' }, variables: [placeholder('bearerToken')] };
    }
    if (type === 'apiKey') {
      const where = String(scheme.in ?? 'header');
      if (where === 'header' || where === 'query') {
        return {
          auth: { type: 'apiKey', key: String(scheme.name ?? ''), value: '{{apiKey}}', ...(where === 'query' ? { location: 'query' as const } : {}) },
          variables: [placeholder('apiKey')],
        };
      }
      return { unsupported: `The security scheme "${name}" is an API key in a ${where}, which Ferry cannot send as auth; it was not imported. Add the ${where} yourself.` };
    }
    if (type === 'oauth2') return this.oauth2(name, scheme);
    if (type === 'http') return { unsupported: `The security scheme "${name}" uses HTTP ${httpScheme || 'auth'}, which Ferry does not support; it was not imported.` };
    const label = type === 'openIdConnect' ? 'OpenID Connect' : type === 'mutualTLS' ? 'mutual TLS' : `"${type}"`;
    return { unsupported: `The security scheme "${name}" uses ${label}, which Ferry does not import as auth; it was not imported.` };
  }

  private oauth2(name: string, scheme: JsonObject): Converted {
    // OpenAPI 3 lists flows by name; Swagger 2.0 has one `flow` with older names.
    const flows: Array<{ flow: string; data: JsonObject }> = [];
    if (isObject(scheme.flows)) {
      for (const [flow, data] of Object.entries(scheme.flows)) if (isObject(data)) flows.push({ flow, data });
    } else if (typeof scheme.flow === 'string') {
      const renamed = { application: 'clientCredentials', accessCode: 'authorizationCode' }[scheme.flow] ?? scheme.flow;
      flows.push({ flow: renamed, data: scheme });
    }
    const chosen = flows.find((f) => f.flow !== 'implicit' && ['clientCredentials', 'authorizationCode', 'password'].includes(f.flow)) ?? flows.find((f) => f.flow === 'implicit');
    if (!chosen) return { unsupported: `The OAuth 2.0 scheme "${name}" has no flow Ferry knows; it was not imported.` };
    const { flow, data } = chosen;
    const grantType = flow === 'implicit' ? 'authorizationCode' : (flow as 'clientCredentials' | 'authorizationCode' | 'password');
    const scopes = isObject(data.scopes) ? Object.keys(data.scopes) : [];
    const auth: ImportedAuth = {
      type: 'oauth2',
      grantType,
      ...(typeof data.tokenUrl === 'string' ? { tokenUrl: data.tokenUrl } : {}),
      ...(typeof data.authorizationUrl === 'string' ? { authUrl: data.authorizationUrl } : {}),
      clientId: '{{clientId}}',
      clientSecret: '{{clientSecret}}',
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      ...(grantType === 'password' ? { username: '{{username}}', password: '{{password}}' } : {}),
    };
    const variables = [placeholder('clientId'), placeholder('clientSecret')];
    if (grantType === 'password') variables.push(placeholder('username'), placeholder('password'));
    const note =
      flow === 'implicit'
        ? `The OAuth 2.0 scheme "${name}" only offers the implicit flow, which Ferry does not run; it was imported as an authorization code grant. Ask the provider for a token URL.`
        : undefined;
    return { auth, variables, ...(note ? { note } : {}) };
  }
}
