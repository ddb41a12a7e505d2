/** The gRPC and MCP example requests (examples/protocols/) are valid request files that prepare for their kind. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { requestSchema, workspaceSchema } from '../../src/model/index.js';
import { requestKind } from '../../src/protocols/index.js';
import { prepareRequest } from '../../src/request/index.js';

const root = path.join(import.meta.dirname, '..', '..', 'examples', 'protocols');

describe('examples/protocols: gRPC and MCP requests', () => {
  for (const folder of ['gRPC', 'MCP']) {
    it(`requests/${folder}/ files parse and prepare`, async () => {
      const names = (await fs.readdir(path.join(root, 'requests', folder))).filter((n) => n.endsWith('.yaml'));
      expect(names.length).toBeGreaterThanOrEqual(3);
      for (const name of names) {
        const request = requestSchema.parse(parse(await fs.readFile(path.join(root, 'requests', folder, name), 'utf8')));
        expect(request.kind).toBe(folder.toLowerCase());
        const prepared = await prepareRequest({ request, folders: [], workspace: { root, file: workspaceSchema.parse({ version: 1 }) }, variables: undefined }, { kind: requestKind(request.kind) });
        expect(prepared.kind).toBe(request.kind);
        for (const proto of ((prepared.options?.protoFiles as string[] | undefined) ?? [])) await fs.access(path.join(root, proto));
      }
    });
  }
});
