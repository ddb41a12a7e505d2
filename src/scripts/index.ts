/** Ferry's script engine: pre-request and post-response JavaScript in a QuickJS sandbox with Postman's `pm` API. */
export { ScriptEngine } from './host/engine.js';
export { bundledModules } from './host/bundles.js';
export { defaultMemoryBytes, defaultTimeoutMs } from './host/runtime.js';
export type * from './types.js';
