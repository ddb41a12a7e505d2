/**
 * A form-data field holding several files (Postman's multiple file select, `src: [a, b]`): Newman
 * sends one part per file under the field's name. The import kept only the first file (with a
 * note), so `ferry run` sent one. Now each file is a row of its own: the same parts go out.
 * Real Newman and `ferry import` + `ferry run` against one loopback server, real files.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { importedWorkspace, newmanConsole } from '../support/newman.js';
import { startRecordingServer, type RecordingServer } from '../support/servers/index.js';
import { tempDir } from '../support/temp.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

/** Each part as `name filename: text`, in the order sent. */
async function parts(request: RecordingServer['requests'][number]): Promise<string[]> {
  const type = request.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  const form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } }).formData();
  const out: string[] = [];
  for (const [name, value] of form.entries()) out.push(typeof value === 'string' ? `${name}: ${value}` : `${name} ${value.name}: ${await value.text()}`);
  return out;
}

describe('a form-data field with several files', () => {
  it('is sent as one part per file, as Newman sends it', async () => {
    const dir = await tempDir('ferry-newman-files-');
    const collection = {
      info: { name: 'Upload', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{
        name: 'Send files',
        request: {
          method: 'POST',
          url: `${server.base}/up`,
          body: { mode: 'formdata', formdata: [{ key: 'files', type: 'file', src: ['a.txt', 'b.txt'] }, { key: 'note', value: 'hi', type: 'text' }] },
        },
      }],
    };
    const file = path.join(dir, 'upload.postman_collection.json');
    await fs.writeFile(file, JSON.stringify(collection));
    await fs.writeFile(path.join(dir, 'a.txt'), 'first file');
    await fs.writeFile(path.join(dir, 'b.txt'), 'second file');

    await newmanConsole({ collection, workingDir: dir });
    const byNewman = await parts(server.requests.splice(0)[0]!);
    expect(byNewman).toEqual(['files a.txt: first file', 'files b.txt: second file', 'note: hi']);

    const root = await importedWorkspace(dir, file);
    // The files are not in the export: a user puts them where the import's note says, the workspace folder.
    await fs.copyFile(path.join(dir, 'a.txt'), path.join(root, 'a.txt'));
    await fs.copyFile(path.join(dir, 'b.txt'), path.join(root, 'b.txt'));
    const run = await ferry(['-w', root, 'run', '--timeout-ms', '5000']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await parts(server.requests.splice(0)[0]!)).toEqual(byNewman);
  });
});
