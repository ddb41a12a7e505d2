/** Turning a saved request into a wire-ready one (spec 2.2–2.7, 2.9, 5). */
export type * from './prepared.js';
export { prepareRequest, HTTP_RULES, type PrepareInput, type PrepareOptions } from './prepare.js';
export { PrepareError } from './errors.js';
export type { Face } from './url.js';
export { effectiveAuth, hasScripts, mergedHeaders, scriptChain, type FolderLike, type EffectiveAuth, type RawHeader } from './inherit.js';
export { effectiveSettings } from './settings.js';
export { loadVariableSnapshot, scopeFrom, type VariableSnapshot } from './variable-snapshot.js';
export { oauth2AccessToken } from './auth.js';
export { tokenCacheKey, type OAuth2Settings } from './oauth2-cache-key.js';
export type { OAuth2Options } from './oauth2.js';
export { AUTH_NAMES } from './auth.js';
export { checkBodyFile, MAX_BODY_FILE_BYTES } from './body.js';
export { fetchOAuth2Token, maskToken, type FetchedToken } from './oauth2-fetch.js';
