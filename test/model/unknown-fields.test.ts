/**
 * Misspelt fields (`hedaers:`) are kept but never read; `ferry run`, `ferry serve` and every
 * command reading `ferry.yaml` say so. Every field the format has must be known: no valid file of
 * the examples or fixtures may be warned about.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseResource, unknownFieldNotes, unknownFieldsWarning, type ResourceKind } from '../../src/model/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKSPACES = ['examples/demo', 'examples/protocols', 'test/fixtures/full'];
/** Unknown on purpose: the fixture keeps a field of a newer format (forward compatibility). */
const ON_PURPOSE: Record<string, string[]> = {
  'test/fixtures/full/ferry.yaml': ['futureField'],
};

/** Every file of a workspace with the kind it is read as. */
function filesOf(workspace: string): Array<{ file: string; kind: ResourceKind }> {
  const out: Array<{ file: string; kind: ResourceKind }> = [{ file: path.join(workspace, 'ferry.yaml'), kind: 'workspace' }];
  const dirs: Array<[string, ResourceKind]> = [['requests', 'request'], ['environments', 'environment'], ['servers', 'server'], ['loadtests', 'loadtest']];
  for (const [dir, kind] of dirs) {
    let entries: string[] = [];
    try {
      entries = readdirSync(path.join(ROOT, workspace, dir), { recursive: true }) as string[];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.endsWith('.yaml')) continue;
      out.push({ file: path.join(workspace, dir, entry), kind: path.basename(entry) === '_folder.yaml' ? 'folder' : kind });
    }
  }
  return out;
}

describe('fields the format does not have', () => {
  it('names each with the field it likely meant, at any depth and in every kind section', () => {
    const request = parseResource('request', { name: 'r', hedaers: [], kind: 'mqtt', mqtt: { topik: 't' }, settings: { folowRedirects: false } });
    expect(request.ok).toBe(true);
    if (!request.ok) return;
    expect(unknownFieldNotes('request', request.value)).toEqual(expect.arrayContaining(['hedaers (did you mean headers?)', 'mqtt.topik (did you mean topic?)', 'settings.folowRedirects (did you mean followRedirects?)']));
    expect(unknownFieldNotes('request', request.value)).toHaveLength(3);
    // `x-…` fields are extensions kept on purpose; Digest's and AWS's auth fields are read as written.
    const kept = parseResource('request', { name: 'r', 'x-origin': 1, headers: [{ key: 'a', 'x-row': true }], auth: { type: 'awsv4', accessKey: 'k', region: 'eu' } });
    expect(kept.ok && unknownFieldNotes('request', kept.value)).toEqual([]);
    const server = parseResource('server', { name: 's', kind: 'http', port: 0, http: { rotues: [] }, websocket: { rulez: [] } });
    expect(server.ok).toBe(true);
    if (!server.ok) return;
    expect(unknownFieldsWarning('server', 'servers/s.yaml', server.value)).toBe('servers/s.yaml: fields that servers do not have are ignored: http.rotues (did you mean routes?), websocket.rulez (did you mean rules?).');
    const environment = parseResource('environment', { name: 'e', varaibles: [] });
    expect(environment.ok && unknownFieldsWarning('environment', 'environments/e.yaml', environment.value)).toBe('environments/e.yaml: fields that environments do not have are ignored: varaibles (did you mean variables?).');
  });

  it('no valid file of the examples and fixtures is warned about', () => {
    let checked = 0;
    for (const workspace of WORKSPACES) {
      for (const { file, kind } of filesOf(workspace)) {
        const parsed = parseResource(kind, parse(readFileSync(path.join(ROOT, file), 'utf8')));
        if (!parsed.ok) continue;
        checked++;
        expect(unknownFieldNotes(kind, parsed.value), file).toEqual(ON_PURPOSE[file] ?? []);
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
