/** Ferry's script engine: pre-request and post-response JavaScript in a QuickJS sandbox with Postman's `pm` API. */
export { ScriptEngine } from './engine.js';
export { bundledModules } from './bundles.js';
export { defaultMemoryBytes, defaultTimeoutMs } from './sandbox-host.js';
export type * from './types.js';
