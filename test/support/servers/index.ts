/**
 * The test bench: the real servers tests talk to, in one place, all listening on 127.0.0.1 port 0.
 *
 * - peers.ts — HTTP/1.1, h2c and TLS (h2 + HTTP/1.1) peers that record each request and answer
 *   redirect, slow, encoding, cookie and Digest routes (`startHttp1`, `startH2c`, `startTls`, …)
 * - postman-echo.ts — a local postman-echo.com for the Postman corpus (`startEchoServer`,
 *   `startRawEchoServer`)
 * - recording.ts — records exactly what a client sent, for generated code (`startRecordingServer`)
 * - oauth.ts — an OAuth 2.0 authorization server (`startAuthServer`)
 * - listen.ts — how they all listen and close, and `requestLog` (wait for a request, no sleeps)
 * - ports.ts — `freePort`, only where the code under test takes a fixed port
 * - nginx.ts — Debian's nginx as a reverse proxy in front of Ferry's servers (`startNginx`, `nginxMissing`)
 */
export * from './listen.js';
export * from './peers.js';
export * from './postman-echo.js';
export * from './recording.js';
export * from './oauth.js';
export * from './ports.js';
export * from './proxies.js';
export * from './nginx.js';
