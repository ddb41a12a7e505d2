/**
 * A server can stack codings (`Content-Encoding: deflate, deflate, …` over a body compressed as
 * many times): each layer costs a pass over the body, and tens of thousands of layers in a 1 MB
 * header block the process for minutes. As curl (CVE-2022-32206), at most 5 codings are undone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { HttpAgents, SendError, sendHttp } from '../../src/protocols/http/http.js';
import { MAX_CODINGS } from '../../src/support/content-coding.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { preparedRequest } from './prepared.js';

let server: http.Server;
let base = '';
let agents: HttpAgents;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const layers = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('layers'));
    let body: Buffer = Buffer.from('layered ✓');
    for (let i = 0; i < layers; i++) body = zlib.deflateSync(body);
    res.writeHead(200, { 'content-encoding': Array(layers).fill('deflate').join(', ') }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  server.close();
});

const get = (url: string): PreparedRequest => preparedRequest(url, {}, { maxRedirects: 5, httpVersion: 'http1' });

describe('stacked content codings', () => {
  it('undoes up to 5 and refuses more, naming the limit', async () => {
    expect(MAX_CODINGS).toBe(5);
    const five = await sendHttp(get(`${base}/?layers=5`), { agents });
    expect(Buffer.from(five.body).toString('utf8')).toBe('layered ✓');
    const error = (await sendHttp(get(`${base}/?layers=6`), { agents }).catch((e: unknown) => e)) as SendError;
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toMatch(/6 content codings stacked \(Content-Encoding\); Ferry undoes at most 5/);
  });
});
