/**
 * `ferry ls` opens the workspace as a listing (issue 21: 30,000 requests in under a second): each
 * request file is read and checked, but only its summary is kept, and plainly valid files skip
 * zod's full parse (`surelyValid`). The listing must give what the full read gives: the same
 * warnings word for word, the same broken files, the same names, kinds, methods and order.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { dropNullFields } from '../../src/model/declare.js';
import { parseRequestSummary, parseResource, RESOURCE_SCHEMAS } from '../../src/model/index.js';
import { surelyValid } from '../../src/model/quick-check.js';
import { formatWarning, initWorkspace, openWorkspace, type FolderNode, type TreeNode } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

/** Request files, good and broken in every way the reader reports. */
const FILES: Record<string, string> = {
  'Plain.yaml': 'name: Plain\nseq: 2\nmethod: post\nurl: "{{base}}/x"\nheaders:\n  - key: Accept\n    value: application/json\n',
  'Defaults.yaml': 'name: Defaults\n',
  'Nulls.yaml': 'name: Nulls\nkind:\nmethod:\nurl:\nheaders:\n  - key: A\n    value:\n',
  'Numbers as text.yaml': 'name: 42\nmethod: 7\nheaders:\n  - key: true\n    value: 1.5\n',
  'With auth.yaml': 'name: With auth\nauth:\n  type: bearer\n  token: "{{t}}"\n',
  'Bad auth.yaml': 'name: Bad auth\nauth:\n  type: kerberos\n',
  'Socket.yaml': 'name: Socket\nkind: websocket\nurl: ws://127.0.0.1:1/\nsocket:\n  broadcast: true\n',
  'Mqtt.yaml': 'name: Mqtt\nkind: mqtt\nmqtt:\n  qos: 3\n',
  'Removed.yaml': 'name: Removed\nopenapi:\n  operation: getX\n  removed: true\n',
  'Unknown fields.yaml': 'name: Unknown fields\nfuture: [1, 2]\nconstructor: null\nbody:\n  type: json\n  text: "{}"\n  extra: 1\n',
  'Proto.yaml': 'name: Proto\n__proto__:\n  polluted: true\n',
  'Syntax.yaml': 'name: [unclosed\n',
  'List.yaml': '- just\n- a list\n',
  'Empty.yaml': '',
  'Wrong types.yaml': 'name: Wrong types\nheaders: 5\nseq: "first"\nkind: carrier-pigeon\n',
  'Infinite.yaml': 'name: Infinite\nseq: .inf\n',
  'No name.yaml': 'method: GET\n',
  'Null row.yaml': 'name: Null row\nheaders:\n  - null\n',
  'Long name.yaml': `name: ${'n'.repeat(260)}\n`,
  'Empty name.yaml': 'name: ""\n',
  'Anchors.yaml': 'name: Anchors\nheaders:\n  - &h\n    key: A\n    value: b\n  - *h\n',
  'Settings.yaml': 'name: Settings\nsettings:\n  timeoutMs: -5\n',
  'Examples.yaml': 'name: Examples\nexamples:\n  - name: ok\n    status: 200\n    body: "{}"\n  - status: 1200\n',
};

async function workspaceWithEveryProblem(): Promise<string> {
  const root = await initWorkspace(path.join(await tempDir(), 'ws'), 'Listing');
  const dir = path.join(root, 'requests', 'Area');
  await fs.mkdir(path.join(dir, 'Inner'), { recursive: true });
  await fs.writeFile(path.join(dir, '_folder.yaml'), 'name: Area\nseq: 1\nheaders: nope\n');
  await fs.writeFile(path.join(dir, 'Inner', '_folder.yaml'), 'name: Inner\nauth:\n  type: basic\n  username: u\n');
  for (const [name, text] of Object.entries(FILES)) {
    await fs.writeFile(path.join(dir, name), text);
    await fs.writeFile(path.join(dir, 'Inner', name), text);
  }
  await fs.symlink(path.join(dir, 'Plain.yaml'), path.join(dir, 'Link.yaml'));
  // Variable keys no placeholder can name (read as written, with a warning), in ferry.yaml and an environment.
  await fs.appendFile(path.join(root, 'ferry.yaml'), 'variables:\n  - key: ok\n    value: "1"\n  - key: "a}}b"\n    value: "2"\n');
  await fs.writeFile(path.join(root, 'environments', 'Odd keys.yaml'), 'name: Odd keys\nvariables:\n  - key: " api key"\n    value: k\n');
  return root;
}

/** A full tree reduced to what a listing keeps. */
function summarize(node: TreeNode): unknown {
  if (node.type === 'folder') {
    const { name, seq } = node.settings;
    return { ...node, settings: name === undefined ? { seq } : { name, seq }, children: node.children.map(summarize) };
  }
  if (node.type === 'broken') return node;
  const { name, kind, seq, method, openapi } = node.request;
  return { ...node, request: openapi === undefined ? { name, kind, seq, method } : { name, kind, seq, method, openapi } };
}

describe('a workspace opened as a listing', () => {
  it('has the full read\'s tree (summaries), broken files and warnings, word for word', async () => {
    const root = await workspaceWithEveryProblem();
    const full = await openWorkspace(root);
    const listing = await openWorkspace(root, { listing: true });
    expect(listing.warnings).toEqual(full.warnings);
    expect(listing.tree).toEqual(summarize(full.tree) as FolderNode);
    expect(full.warnings.length).toBeGreaterThan(15);
    // The part read (`ferry ls PATH`) too.
    const part = await openWorkspace(root, { requests: ['Area/Inner'], listing: true });
    const fullPart = await openWorkspace(root, { requests: ['Area/Inner'] });
    expect(part.warnings).toEqual(fullPart.warnings);
    expect(part.tree).toEqual(summarize(fullPart.tree) as FolderNode);
  });

  it('ferry ls prints every broken file with the full read\'s message', async () => {
    const root = await workspaceWithEveryProblem();
    const full = await openWorkspace(root);
    for (const args of [['ls'], ['ls', '--problems'], ['ls', '--json'], ['ls', 'Area/Inner', '--json']]) {
      let out = '';
      const code = await main(['-w', root, ...args], { output: { out: (t) => void (out += t), err: () => {}, color: false } });
      expect(code).toBe(0);
      if (args.includes('--json') && args.length === 2) {
        const listed = JSON.parse(out) as { warnings: unknown; requests: Array<{ path: string; broken?: boolean; warning?: string }> };
        expect(listed.warnings).toEqual(full.warnings);
        const broken = listed.requests.filter((r) => r.broken).map((r) => r.warning);
        expect(broken.length).toBeGreaterThan(10);
        for (const message of broken) expect(full.warnings.map((w) => w.message)).toContain(message);
      } else if (args.includes('--problems')) {
        for (const w of full.warnings.filter((x) => !x.problems)) expect(out).toContain(formatWarning(w));
      }
    }
  });
});

const requestSchema = RESOURCE_SCHEMAS.request;
const keys = Object.keys(requestSchema.shape);
const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 1_000_000 }), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('GET', 'http', 'mqtt', 'json', 'bearer', 'inherit'));
const row = fc.dictionary(fc.constantFrom('key', 'value', 'enabled', 'description', 'type', 'qos', 'name', 'status', 'removed', 'extra'), scalar, { maxKeys: 4 });
const value = fc.oneof(scalar, fc.array(fc.oneof(row, scalar), { maxLength: 3 }), row);
/** Mostly a named request with a few fields of any shape: valid often enough, broken in many ways. */
const requestData = fc
  .tuple(fc.option(fc.record({ name: fc.string({ maxLength: 3 }) })), fc.dictionary(fc.constantFrom(...keys, 'other', '__proto__'), value, { maxKeys: 4 }))
  .map(([base, extra]) => ({ ...base, ...extra }));

describe('surelyValid (the listing\'s shortcut past zod)', () => {
  it('property: says yes only for data zod accepts, and the summary is the full parse\'s', () => {
    let yes = 0;
    fc.assert(
      fc.property(requestData, (data) => {
        const full = parseResource('request', data);
        if (surelyValid(requestSchema, data)) {
          yes++;
          expect(full.ok).toBe(true);
        }
        if (surelyValid(requestSchema, dropNullFields(requestSchema, data))) expect(full.ok).toBe(true);
        const summary = parseRequestSummary(data);
        expect(summary.ok).toBe(full.ok);
        if (full.ok && summary.ok) {
          const { name, kind, seq, method, openapi } = full.value;
          expect(summary.value).toEqual(openapi === undefined ? { name, kind, seq, method } : { name, kind, seq, method, openapi });
        }
        if (!full.ok && !summary.ok) expect(summary.problems).toEqual(full.problems);
      }),
      { numRuns: 3000 },
    );
    // The shortcut is taken often enough for the property to say something.
    expect(yes).toBeGreaterThan(100);
  });

  it('says yes for the usual request files', () => {
    for (const data of [{ name: 'a' }, { name: 'a', seq: 3, method: 'POST', url: 'x', headers: [{ key: 'A', value: 1 }], scripts: { postResponse: 'x' } }]) {
      expect(surelyValid(requestSchema, data)).toBe(true);
    }
  });
});
