/**
 * The app's API sends the workspace's file problems as `ferry ls --json` gives them, each with its
 * warning code (docs/workspace.md, "Warning codes"), and a request file that did not read with its
 * warning's code, in the full tree and the compact one; the page prints each warning in the words
 * `ferry ls --problems` prints. The real app server on 127.0.0.1 over a workspace with a real
 * link, a FIFO (the `mkfifo` program), a sparse file over the size limit and a file that does
 * not parse.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompactWorkspaceInfo, TreeItem, WorkspaceInfo } from '../../src/app/shared/api.js';
import { expandTree } from '../../src/app/web/tree.js';
import { MAX_YAML_BYTES } from '../../src/workspace/files.js';
import { formatWarning } from '../../src/workspace/warning-text.js';
import { ferry } from '../support/cli.js';
import { appForTest } from './app-for-test.js';

async function prepare(root: string): Promise<void> {
  await fs.symlink('Good.yaml', path.join(root, 'requests', 'Linked.yaml'));
  execFileSync('mkfifo', [path.join(root, 'requests', 'Pipe.yaml')]);
  // Over the limit without writing 50 MB: a sparse file.
  await fs.writeFile(path.join(root, 'requests', 'Big.yaml'), '');
  await fs.truncate(path.join(root, 'requests', 'Big.yaml'), MAX_YAML_BYTES + 1);
}

const brokenOf = (tree: TreeItem) => (tree.type === 'folder' ? tree.children.filter((c) => c.type === 'broken') : []);

describe('the app API: file problems with their warning codes', () => {
  it('GET /api/workspace gives the warnings as ferry ls --json does, codes included, and each broken file its code', async () => {
    const { ws, call } = await appForTest({
      'requests/Good.yaml': 'name: Good\nurl: http://127.0.0.1:9/\n',
      'requests/Syntax.yaml': 'name: [unclosed\n',
    }, (temp) => prepare(temp.root));
    const listed = await ferry(['-w', ws.root, 'ls', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const cli = JSON.parse(listed.stdout) as { warnings: WorkspaceInfo['warnings'] };
    expect(cli.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['symlink', 'fifo', 'too-large']));

    const full = await call<WorkspaceInfo>('GET', '/api/workspace');
    expect(full.status).toBe(200);
    // One shape on the wire: the same objects, in the same order.
    expect(full.body.warnings).toEqual(cli.warnings);
    expect(full.body.warnings.find((w) => w.file === 'requests/Pipe.yaml')).toEqual({
      file: 'requests/Pipe.yaml',
      message: 'requests/Pipe.yaml is a named pipe, not a regular file; Ferry reads regular files only, so it was skipped. Put a regular file in its place, or remove it.',
      code: 'fifo',
      namesFile: true,
    });
    // A problem with what a file says has no code, and is placed after its file:line:column.
    const syntax = full.body.warnings.find((w) => w.file === 'requests/Syntax.yaml')!;
    expect(syntax.code).toBeUndefined();
    expect(formatWarning(syntax)).toMatch(/^requests\/Syntax\.yaml:\d+:\d+: YAML syntax error: /);
    // The page prints each one as ferry ls --problems does.
    const problems = await ferry(['-w', ws.root, 'ls', '--problems']);
    const printed = problems.stdout.split('\n').filter((line) => /^requests\//.test(line));
    expect(full.body.warnings.map(formatWarning)).toEqual(printed);

    expect(brokenOf(full.body.tree)).toEqual([
      { type: 'broken', path: 'Big.yaml', message: expect.stringContaining('YAML files over 50 MB are not read'), code: 'too-large' },
      { type: 'broken', path: 'Syntax.yaml', message: expect.stringMatching(/^requests\/Syntax\.yaml:\d+:\d+: YAML syntax error: /) },
    ]);
    const compact = await call<CompactWorkspaceInfo>('GET', '/api/workspace?tree=compact');
    expect(compact.body.warnings).toEqual(cli.warnings);
    expect(compact.body.compactTree.c.filter((c) => 'e' in c)).toEqual([
      { f: 'Big.yaml', e: expect.stringContaining('YAML files over 50 MB are not read'), w: 'too-large' },
      { f: 'Syntax.yaml', e: expect.stringMatching(/^requests\/Syntax\.yaml:\d+:\d+: /) },
    ]);
    // The page's expansion keeps the code: the same items as the full tree.
    expect(brokenOf(expandTree(compact.body.compactTree))).toEqual(brokenOf(full.body.tree));
  }, 60_000);
});
