/** What a load test sends as a request's body: the same bytes `ferry run` sends (one encoder). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { planLoadTest } from '../../src/load/index.js';
import { openedWorkspace } from '../runner/workspace.js';

describe('load plan: request bodies', () => {
  it('a multipart body is encoded as a send encodes it: a text part keeps its Content-Type, a file part its name and type', async () => {
    const { ws, data } = await openedWorkspace({
      'files/note.txt': 'file part ✓',
      'requests/upload.yaml': {
        name: 'upload',
        method: 'POST',
        url: 'http://127.0.0.1:9/upload',
        body: {
          type: 'multipart',
          multipart: [
            { key: 'meta', value: '{"a":1}', contentType: 'application/json' },
            { key: 'doc', value: 'files/note.txt', file: true },
          ],
        },
      },
      'loadtests/up.yaml': { name: 'up', targets: [{ request: 'upload.yaml' }], model: 'arrivalRate', stages: [{ durationSecs: 1, target: 1 }] },
    });
    const plan = await planLoadTest({ workspace: ws, id: 'up', data, settings: DEFAULT_SETTINGS });
    const target = plan.config.targets[0]!;
    const type = target.headers.filter(([name]) => name.toLowerCase() === 'content-type');
    expect(type).toHaveLength(1);
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type[0]![1])![1]!;
    expect(Buffer.from(target.body as Uint8Array).toString('utf8')).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="note.txt"\r\nContent-Type: application/octet-stream\r\n\r\nfile part ✓\r\n` +
        `--${boundary}--\r\n`,
    );
  });
});
