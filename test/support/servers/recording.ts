/** A real HTTP server on 127.0.0.1 that records exactly what a client sent. */
import http from 'node:http';
import { listenLoopback } from './listen.js';

export interface Recorded {
  method: string;
  /** The request target as sent (path and query, not decoded). */
  url: string;
  /** Header pairs in arrival order, names as sent. */
  headers: [string, string][];
  body: Buffer;
}

export interface RecordingServer {
  base: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Answers every request `200 ok` (connection: close) after recording it byte for byte. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end('ok');
    });
  });
  const { url, close } = await listenLoopback(server, 'http');
  return { base: url, requests, close };
}
