/**
 * The editors' save rule (src/app/web/save-answer.ts, EditorSaves) against the real app server:
 * Save pressed again while a save is on its way sends nothing then; once it has answered, what the
 * editor holds is sent in one more save when it changed, on the first answer's base (so the
 * server does not refuse it as a conflict), and nothing more when it did not. Every PUT goes
 * through the tests' API client to `ferry app` on 127.0.0.1 and is counted as it is sent; the
 * file on disk is the judge of what was written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { EnvironmentVariableView } from '../../src/app/shared/api.js';
import { EditorSaves } from '../../src/app/web/save-answer.js';
import { ApiClient, type Answer } from './api-client.js';
import { appForTest } from './app-for-test.js';

type Variables = { id?: string; name: string; variables: EnvironmentVariableView[]; mark?: unknown };
type Row = { key: string; value: string; enabled: boolean; secret: boolean };

/** An app on a workspace with one environment, and the environment dialog's save as the page sends it. */
async function environmentApp() {
  const { ws, app } = await appForTest({ 'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] } });
  const client = new ApiClient(app.port);
  await client.login(app.token);
  const opened = (await client.call('GET', '/api/environment/variables?id=local')).body as Variables;
  const file = path.join(ws.root, 'environments', 'local.yaml');
  /** What the server answered to each PUT, in the order they were sent; `most`: the most on their way at once. */
  const puts: Answer[] = [];
  let onTheirWay = 0;
  let most = 0;
  /** The dialog's send (EnvironmentDialog.tsx): the base is the dialog's, or the answer of the save it follows. */
  const send = async (rows: Row[], after: Variables | undefined): Promise<Variables> => {
    onTheirWay += 1;
    most = Math.max(most, onTheirWay);
    try {
      const answer = await client.call('PUT', '/api/environment/variables', { id: after?.id ?? 'local', base: after ? after.variables : opened.variables, variables: rows, mark: after?.mark ?? opened.mark });
      puts.push(answer);
      if (answer.status !== 200) throw new Error(`PUT answered ${answer.status}: ${answer.text}`);
      return answer.body as Variables;
    } finally {
      onTheirWay -= 1;
    }
  };
  const onDisk = async () => (parse(await fs.readFile(file, 'utf8')) as { variables: Row[] }).variables.map((v) => v.value);
  return { client, send, puts, most: () => most, onDisk, file };
}

const row = (value: string): Row[] => [{ key: 'who', value, enabled: true, secret: false }];

describe('the editors\' Save against the app server: one save at a time', () => {
  it('Save, typing, Save again before the answer: two PUTs one after the other, the second on the first answer\'s base, the file holds the last text', async () => {
    const { send, puts, most, onDisk } = await environmentApp();
    let typed = row('two');
    const saves = new EditorSaves(() => typed);
    const answers: [string, boolean, boolean][] = [];
    const answered = (answer: Variables, typedSince: boolean, _sent: Row[], sentNext: boolean) => answers.push([answer.variables[0]!.value, typedSince, sentNext]);
    const first = saves.save(send, answered);
    expect(saves.saving.current).toBe(true);
    typed = row('three');
    const second = saves.save(send, answered);
    typed = row('four');
    const third = saves.save(send, answered);
    expect((await first)?.variables[0]!.value).toBe('two');
    // The second and third Saves are one save, of what the editor held when the first answered.
    expect((await second)?.variables[0]!.value).toBe('four');
    expect((await third)?.variables[0]!.value).toBe('four');
    expect(saves.saving.current).toBe(false);
    expect(puts.map((p) => p.status)).toEqual([200, 200]);
    expect(most()).toBe(1);
    expect(answers).toEqual([['two', true, true], ['four', false, false]]);
    expect(await onDisk()).toEqual(['four']);
  });

  it('Save twice with nothing typed between: one PUT; the second Save resolves with nothing sent, and the file is written once', async () => {
    const { send, puts, onDisk, file } = await environmentApp();
    const typed = row('two');
    const saves = new EditorSaves(() => typed);
    const answered = () => undefined;
    const first = saves.save(send, answered);
    const second = saves.save(send, answered);
    expect((await first)?.variables[0]!.value).toBe('two');
    const written = (await fs.stat(file)).ino;
    expect(await second).toBeUndefined();
    expect(puts.map((p) => p.status)).toEqual([200]);
    expect(await onDisk()).toEqual(['two']);
    // Writes are atomic (a new file renamed over the old one): the same inode is the same write.
    expect((await fs.stat(file)).ino).toBe(written);
  });

  it('the first save refused: the Save pressed meanwhile sends nothing and gets the same refusal; the file keeps its outside edit', async () => {
    const { send, puts, onDisk, file } = await environmentApp();
    // Changed outside the app after the dialog read it: the first save is refused (409).
    await fs.writeFile(file, 'name: Local\nvariables:\n  - key: who\n    value: outside\n');
    let typed = row('two');
    const saves = new EditorSaves(() => typed);
    const first = saves.save(send, () => undefined);
    typed = row('three');
    const second = saves.save(send, () => undefined);
    await expect(first).rejects.toThrow(/PUT answered 409: .*changed on disk since the app read it; nothing was saved/);
    await expect(second).rejects.toThrow(/PUT answered 409/);
    expect(puts.map((p) => p.status)).toEqual([409]);
    expect(saves.saving.current).toBe(false);
    expect(await onDisk()).toEqual(['outside']);
  });

  it('settled: at once with no save on its way; else once the last save (the one a Save pressed meanwhile sent) has answered, or one was refused', async () => {
    const { send, puts, onDisk, file } = await environmentApp();
    let typed = row('two');
    const saves = new EditorSaves(() => typed);
    await saves.settled();
    expect(puts).toEqual([]);
    const first = saves.save(send, () => undefined);
    typed = row('three');
    const second = saves.save(send, () => undefined);
    // What a read of the file waits for (disk-reread.ts): after it, the file holds the last save.
    await saves.settled();
    expect(saves.saving.current).toBe(false);
    expect(puts.map((p) => p.status)).toEqual([200, 200]);
    expect(await onDisk()).toEqual(['three']);
    expect((await first)?.variables[0]!.value).toBe('two');
    expect((await second)?.variables[0]!.value).toBe('three');
    // Refused (the file changed outside since the base sent): settled all the same.
    await fs.writeFile(file, 'name: Local\nvariables:\n  - key: who\n    value: outside\n');
    typed = row('four');
    const refused = saves.save(send, () => undefined);
    refused.catch(() => undefined);
    await saves.settled();
    expect(saves.saving.current).toBe(false);
    await expect(refused).rejects.toThrow(/PUT answered 409/);
  });

  it('why: two PUTs sent at once carry the same base, and the server refuses the second as a conflict with the first', async () => {
    const { client } = await environmentApp();
    const opened = (await client.call('GET', '/api/environment/variables?id=local')).body as Variables;
    const put = (value: string) => client.call('PUT', '/api/environment/variables', { id: 'local', base: opened.variables, variables: row(value), mark: opened.mark });
    const both = await Promise.all([put('two'), put('three')]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});
