/**
 * `ferry run` (bin/ferry.js in a process of its own) prints nothing of grpc-js's: its log went to
 * stderr ("E Failed to add metadata entry …" for an answer's header it drops; traces when
 * GRPC_TRACE is set), and request metadata it refuses was refused in its words. Against a raw
 * HTTP/2 peer on 127.0.0.1 answering with headers and trailers grpc-js cannot read.
 */
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferryProcess } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const repo = path.join(import.meta.dirname, '..', '..');

const request = (name: string, header: string) => `name: ${name}
kind: grpc
url: "{{grpcUrl}}"
method: ferry.test.Echo/Say
grpc:
  protoFiles: [protos/echo.proto]
headers:
  - key: ${header}
body:
  type: json
  text: '{"text": "x"}'
`;

describe('ferry run with gRPC: no library noise on the terminal', () => {
  let server: http2.Http2Server;
  let url: string;
  beforeAll(async () => {
    server = http2.createServer();
    server.on('stream', (stream) => {
      stream.on('error', () => {});
      // Latin-1 bytes in a header and a trailer: grpc-js drops both entries, logging each.
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'x-name': 'Jos\u00e9' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'x-city': 'K\u00f6ln' }));
      stream.end(Buffer.from([0, 0, 0, 0, 4, 0x0a, 0x02, 0x68, 0x69]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  it('answers with metadata grpc-js drops, and request metadata it would refuse, under GRPC_VERBOSITY=DEBUG and GRPC_TRACE=all: stderr stays empty, the JSON report valid', async () => {
    const root = await tempDir();
    const files: Record<string, string> = {
      'ferry.yaml': 'version: 1\nid: grpc-quiet\nname: gRPC quiet\n',
      'requests/A Drops.yaml': request('Drops', 'x-token\n    value: fine'),
      'requests/B Accent.yaml': request('Accent', 'x-who\n    value: "Jos\u00e9"'),
      'requests/C Control.yaml': request('Control', 'x-why\n    value: "a\\tb"'),
      'requests/D Key.yaml': request('Key', '"x!y"\n    value: v'),
      'requests/E Space.yaml': request('Space', '"x y"\n    value: v'),
    };
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), text);
    }
    await fs.mkdir(path.join(root, 'protos', 'common'), { recursive: true });
    await fs.copyFile(path.join(repo, 'test/fixtures/grpc/echo.proto'), path.join(root, 'protos/echo.proto'));
    await fs.copyFile(path.join(repo, 'test/fixtures/grpc/common/kinds.proto'), path.join(root, 'protos/common/kinds.proto'));
    const data = await tempDir('ferry-data-');
    const run = ferryProcess(['-w', root, 'run', '-r', 'json', '--var', `grpcUrl=${url}`], { FERRY_DATA_DIR: data, GRPC_VERBOSITY: 'DEBUG', GRPC_TRACE: 'all' }, 30_000);
    const code = await run.done;
    expect(run.output.stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(run.output.stdout) as { results: Array<{ name: string; method: string; passed: boolean; error: string | null }> };
    // A gRPC method is a name, as typed, whether the request was refused before sending or not (it was upper-cased as HTTP's).
    expect(new Set(report.results.map((r) => r.method))).toEqual(new Set(['ferry.test.Echo/Say']));
    expect(report.results.map((r) => [r.name, r.passed, r.error]).sort()).toEqual([
      ['Accent', false, 'metadata x-who cannot be sent: its value has "é" at character 4, and gRPC text metadata is printable ASCII only (space to ~); percent-encode the value, or send its bytes as base64 under a key ending in -bin.'],
      ['Control', false, 'metadata x-why cannot be sent: its value has U+0009 at character 2, and gRPC text metadata is printable ASCII only (space to ~); percent-encode the value, or send its bytes as base64 under a key ending in -bin.'],
      ['Drops', true, null],
      ['Key', false, 'metadata x!y cannot be sent: gRPC metadata keys are letters, digits, -, _ and . only, and it has "!"; rename the header.'],
      // Refused while the request is prepared (before the kind's own check), its method still shown as typed.
      ['Space', false, 'requests/E Space.yaml: header name "x y" is not valid (letters, digits and - only).'],
    ]);
  });
});
