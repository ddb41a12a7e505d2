/**
 * `ferry run` with no environment chosen, of requests that use variables only an environment file
 * defines (the demo's `{{userId}}` without `-e local`): said once before anything is sent, naming
 * the environment to choose, rather than failing far from the cause (a 404, "not valid JSON").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let peer: Peer;
let temp: TempWorkspace;
beforeAll(async () => {
  peer = await startHttp1();
  temp = await makeWorkspace({
    'requests/Users/Get user.yaml': { name: 'Get user', url: `${peer.url}/users/{{userId}}?team={{team}}&n={{$randomInt}}` },
    // Set by its own script before it is sent: not warned about.
    'requests/Users/Login.yaml': { name: 'Login', url: `${peer.url}/login/{{token}}`, scripts: { preRequest: "pm.environment.set('token', 'abc');" } },
    'environments/local.yaml': { name: 'Local', variables: [{ key: 'userId', value: '42' }, { key: 'token', value: 't' }] },
    'environments/Staging EU.yaml': { name: 'Staging EU', variables: [{ key: 'userId', value: '7' }] },
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await peer.close();
  await temp.cleanup();
});

const WARNING = "no environment chosen, and {{userId}} is defined only in environments local, Staging EU: sent as written. Choose one: -e local (`ferry env use local` makes it the default).";

describe('ferry run with no environment chosen', () => {
  it('names the variables only environments define, and the environment to choose, once before sending', async () => {
    const result = await ferry(['-w', temp.root, 'run', 'Users']);
    expect(result.stdout).toContain(`! ${WARNING}`);
    expect(result.stdout.split(WARNING)).toHaveLength(2);
    expect(result.stdout.indexOf(WARNING)).toBeLessThan(result.stdout.indexOf('GET '));
    // The run goes on, sending the placeholder as written (spec 7).
    expect(result.stdout).toContain('/users/%7B%7BuserId%7D%7D');
    const json = await ferry(['-w', temp.root, 'run', 'Users', '-r', 'json']);
    expect(JSON.parse(json.stdout).warnings).toEqual([WARNING]);
    expect(json.stderr).toContain(`ferry: warning: ${WARNING}`);
  });

  it('says nothing when an environment is chosen or the value comes another way', async () => {
    for (const args of [['-e', 'local'], ['-e', 'Staging EU'], ['--var', 'userId=1']]) {
      const result = await ferry(['-w', temp.root, 'run', 'Users', ...args]);
      expect(result.stdout, args.join(' ')).not.toContain('no environment chosen');
      expect(result.stdout, args.join(' ')).toContain('GET ');
    }
  });
});
