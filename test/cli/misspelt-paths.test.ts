/**
 * A request or folder path typed a letter or two wrong is answered with the one meant (found in a
 * journey: `ferry run "Shop flw"` and a load test's `request: Swagger Petstore/pets/List al pets`
 * said only that there was no such request, where a misspelt command names the nearest). A real
 * workspace and `ferry run`, `ferry export`, `ferry load`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let temp: TempWorkspace;

beforeAll(async () => {
  temp = await makeWorkspace({
    'requests/Shop flow/Login.yaml': { name: 'Login', method: 'POST', url: 'http://127.0.0.1:9/login' },
    'requests/Shop flow/Me.yaml': { name: 'Me', url: 'http://127.0.0.1:9/me' },
    'requests/Health.yaml': { name: 'Health', url: 'http://127.0.0.1:9/health' },
    'requests/Shop flow/Admin tools/Reset cache.yaml': { name: 'Reset cache', method: 'POST', url: 'http://127.0.0.1:9/reset' },
    'loadtests/smoke.yaml': { name: 'Smoke', stages: [{ durationSecs: 1, target: 1 }], targets: [{ request: 'Shop flow/Logn' }] },
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(() => temp.cleanup());

describe('a misspelt request or folder path', () => {
  it('ferry run names the folder or request one or two letters away', async () => {
    const folder = await ferry(['-w', temp.root, 'run', 'Shop flw']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe('ferry: No request or folder "Shop flw" under requests/. Did you mean Shop flow/? Give a request path such as Folder/Name.yaml (see `ferry ls`).\n');
    const request = await ferry(['-w', temp.root, 'run', 'Shop flow/Logn.yaml', '-r', 'json']);
    expect(request.code).toBe(2);
    expect(JSON.parse(request.stdout).error.message).toContain('Did you mean Shop flow/Login.yaml?');
    const exported = await ferry(['-w', temp.root, 'export', 'Helth']);
    expect(exported.stderr).toContain('Did you mean Health.yaml?');
  });

  it('a name, which is looked for at any depth, is guessed at any depth too', async () => {
    const folder = await ferry(['-w', temp.root, 'run', '--folder', 'Admin tols']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe('ferry: No request or folder "Admin tols" under requests/. Did you mean Shop flow/Admin tools/? Give a request path such as Folder/Name.yaml (see `ferry ls`).\n');
    const request = await ferry(['-w', temp.root, 'run', 'Reset cahce']);
    expect(request.stderr).toContain('Did you mean Shop flow/Admin tools/Reset cache.yaml?');
    const listed = await ferry(['-w', temp.root, 'ls', 'Admin tols']);
    expect(listed.stderr).toContain('Did you mean Shop flow/Admin tools/?');
  });

  it('nothing near: no guess', async () => {
    const far = await ferry(['-w', temp.root, 'run', 'Checkout']);
    expect(far.stderr).toBe('ferry: No request or folder "Checkout" under requests/. Give a request path such as Folder/Name.yaml (see `ferry ls`).\n');
  });

  it("a load test's target names the request meant", async () => {
    const load = await ferry(['-w', temp.root, 'load', 'smoke']);
    expect(load.code).toBe(2);
    expect(load.stderr).toContain('loadtests/smoke.yaml: targets[0].request: there is no request "Shop flow/Logn" under requests/. Did you mean Shop flow/Login.yaml?');
  });
});
