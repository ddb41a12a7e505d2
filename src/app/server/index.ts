/** `ferry app`'s local server: the UI, the JSON API over the core, the live channel, one guard. */
export { startAppServer, type AppServer, type AppServerOptions } from './server.js';
export { findWebRoot } from './static-files.js';
