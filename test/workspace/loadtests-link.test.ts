/**
 * Renaming a request updates the load tests that target it, but never through a `loadtests`
 * folder that is a symbolic link: the reader skips such a folder, and the rename leaves whatever
 * it points to untouched.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResource } from '../../src/model/index.js';
import { createRequest, initWorkspace, saveRequest } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

function request(name: string) {
  const parsed = parseResource('request', { name });
  if (!parsed.ok) throw new Error('bad request');
  return parsed.value;
}

describe('load test targets on rename', () => {
  it('are not rewritten through a linked loadtests folder', async () => {
    const base = await tempDir();
    const root = await initWorkspace(path.join(base, 'ws'), 'Links');
    const outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    const text = 'name: L\ntargets:\n  - request: Get.yaml\n';
    await fs.writeFile(path.join(outside, 'l.yaml'), text);
    await fs.symlink(outside, path.join(root, 'loadtests'));
    const p = await createRequest(root, '', request('Get'));
    expect(await saveRequest(root, p, request('Fetch'))).toBe('Fetch.yaml');
    expect(await fs.readFile(path.join(outside, 'l.yaml'), 'utf8')).toBe(text);
    expect(await fs.readdir(outside)).toEqual(['l.yaml']);
  });
});
