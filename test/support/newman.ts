/** Real Newman (a devDependency) run in the test's process, for the parity tests that compare Ferry with it. */
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'vitest';
import { ferry } from './cli.js';
import { listenLoopback, type Listening } from './servers/listen.js';
import { isolatedDataDir } from './temp.js';

interface NewmanRun {
  on(event: 'console', fn: (error: unknown, args: { messages: unknown[] }) => void): NewmanRun;
  on(event: 'done', fn: (error: Error | null, summary: { run: { failures: { error: { message: string } }[] } }) => void): NewmanRun;
}
const newman = createRequire(import.meta.url)('newman') as { run(options: Record<string, unknown>): NewmanRun };

/** Runs Newman with `options` (no reporters, 5 s a request); resolves to what its scripts logged, a line each, and rejects on any failure. */
export async function newmanConsole(options: Record<string, unknown>): Promise<string[]> {
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    newman
      .run({ reporters: [], timeoutRequest: 5000, ...options })
      .on('console', (_e, a) => void lines.push(a.messages.join(' ')))
      .on('done', (error, summary) => {
        if (error) return reject(error);
        if (summary.run.failures.length > 0) return reject(new Error(summary.run.failures.map((f) => f.error.message).join('\n')));
        resolve();
      });
  });
  return lines;
}

/**
 * A fresh data folder and a workspace `dir/ws` made by `ferry init` with `files` (a Postman
 * collection, its environment) imported, as a user moving from Newman would: its folder.
 */
export async function importedWorkspace(dir: string, ...files: string[]): Promise<string> {
  await isolatedDataDir();
  const root = path.join(dir, 'ws');
  expect((await ferry(['init', root, '--name', 'P'])).code).toBe(0);
  for (const file of files) expect((await ferry(['-w', root, 'import', file])).code).toBe(0);
  return root;
}

/**
 * A loopback HTTP server for Newman and Ferry to send the same requests to: `record` gets each
 * request with its whole body, and every answer is `{}` as JSON.
 */
export async function recordingServer(record: (req: http.IncomingMessage, body: Buffer) => void): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      record(req, Buffer.concat(chunks));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return listenLoopback(server, 'http');
}
