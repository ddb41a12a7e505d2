/**
 * An import refused for its format names the input (found in a journey: a CI step importing
 * several exports got "This file is not a format Ferry can import" or "The file looks like JSON
 * but does not parse" with no file named). Real files in a temporary folder, standard input, and
 * `ferry import` as a command.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry, ferryProcess } from '../support/cli.js';
import { makeWorkspace } from '../runner/workspace.js';

describe('an import refused for its format', () => {
  it('names the file, standard input, and leaves the workspace as it was', async () => {
    const temp = await makeWorkspace({});
    process.env.FERRY_DATA_DIR = temp.dataDir;
    try {
      const notes = path.join(temp.root, '..', 'notes.txt');
      const cut = path.join(temp.root, '..', 'cut.postman_collection.json');
      const list = path.join(temp.root, '..', 'list.json');
      await fs.writeFile(notes, 'just some notes\n');
      await fs.writeFile(cut, '{"info": {"name": "Cut", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [\n');
      await fs.writeFile(list, '[]');

      const text = await ferry(['-w', temp.root, 'import', notes]);
      expect(text.code).toBe(2);
      expect(text.stderr).toBe(`ferry: The file ${notes} is not a format Ferry can import. Supported: collection export v2/v2.1, environment export, OpenAPI 3.x / Swagger 2.0 (JSON or YAML), cURL command.\n`);
      const json = await ferry(['-w', temp.root, 'import', cut, '--json']);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout).error.message).toMatch(new RegExp(`^The file ${cut.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} looks like JSON but does not parse: .* at line 2, column 1\\. Is it cut short\\? Export it again\\.$`));
      expect((await ferry(['-w', temp.root, 'import', list])).stderr).toContain(`The file ${list} is not a format Ferry can import (an empty JSON list).`);
      const piped = ferryProcess(['-w', temp.root, 'import', '-'], { FERRY_DATA_DIR: temp.dataDir });
      piped.child.stdin.end('just some notes\n');
      expect(await piped.done).toBe(2);
      expect(piped.output.stderr).toContain('ferry: Standard input is not a format Ferry can import.');

      expect(await fs.readdir(path.join(temp.root, 'requests'))).toEqual([]);
    } finally {
      await temp.cleanup();
    }
  });
});
