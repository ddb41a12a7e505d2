/**
 * A send that fails at an address a redirect gave says so (found in a journey: GitHub's document
 * imported as a mock answers "Download an artifact" with its documented 302 to another host, and
 * `ferry run` said only "unknown host pipelines.actions.githubusercontent.com … Check the URL",
 * a host the request never held). Real servers on 127.0.0.1: a Ferry mock started by
 * `ferry run --start-servers`, and a plain Node server for the protocol-level cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { SendError } from '../../src/protocols/send-error.js';
import { ferry } from '../support/cli.js';
import { closedPort, freePort } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { sendFailure } from './kind-cases.js';
import { preparedRequest } from './prepared.js';

let origin: http.Server;
let originUrl: string;
let gone: number;
let agents: HttpAgents;

beforeAll(async () => {
  gone = await closedPort();
  // Redirects /away to a port nobody listens on, /home to itself.
  origin = http.createServer((req, res) => {
    if (req.url === '/away') res.writeHead(302, { location: `http://127.0.0.1:${gone}/artifact.zip` }).end();
    else if (req.url === '/home') res.writeHead(307, { location: '/away' }).end();
    else res.end('plain');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  origin.close();
});

function failure(url: string): Promise<SendError> {
  return sendFailure(sendHttp(preparedRequest(url), { agents }));
}

describe('a send that fails after a redirect', () => {
  it('names the redirect that led there, keeps the kind of failure, and says how to see the redirect', async () => {
    const error = await failure(`${originUrl}/away`);
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(
      `after a redirect (302 from ${originUrl}/away to http://127.0.0.1:${gone}/artifact.zip): connection refused by 127.0.0.1:${gone}: nothing is listening there. Is the server running, and is the port right? To get the redirect itself as the response, set settings.followRedirects to false.`,
    );
  });

  it('names the last redirect of a chain', async () => {
    const error = await failure(`${originUrl}/home`);
    expect(error.message).toMatch(new RegExp(`^after a redirect \\(302 from ${originUrl}/away to http://127\\.0\\.0\\.1:${gone}/artifact\\.zip\\): connection refused`));
  });

  it('leaves a failure at the request\'s own URL as it was', async () => {
    const error = await failure(`http://127.0.0.1:${gone}/direct`);
    expect(error.message).toBe(`connection refused by 127.0.0.1:${gone}: nothing is listening there. Is the server running, and is the port right?`);
  });

  it('with followRedirects off, the redirect is the response', async () => {
    const result = await sendHttp(preparedRequest(`${originUrl}/away`, {}, { followRedirects: false }), { agents });
    expect(result.status).toBe(302);
  });
});

describe('ferry run against a mock whose route redirects elsewhere', () => {
  let temp: TempWorkspace;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    temp = await makeWorkspace({
      'servers/api.yaml': {
        name: 'API', port, autoStart: true,
        http: { routes: [{ name: 'Download', method: 'GET', path: '/download', status: 302, headers: [{ key: 'Location', value: `http://127.0.0.1:${gone}/artifact.zip` }] }] },
      },
      'requests/Download.yaml': { name: 'Download', url: `http://127.0.0.1:${port}/download` },
    });
    process.env.FERRY_DATA_DIR = temp.dataDir;
  });
  afterAll(() => temp.cleanup());

  it('the report and the terminal name the redirect, not only the host it pointed to', async () => {
    const json = await ferry(['-w', temp.root, 'run', '--start-servers', '-r', 'json']);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout).results[0];
    expect(result.error).toMatch(new RegExp(`^after a redirect \\(302 from http://127\\.0\\.0\\.1:${port}/download to http://127\\.0\\.0\\.1:${gone}/artifact\\.zip\\): connection refused by 127\\.0\\.0\\.1:${gone}`));
    expect(result.error).toContain('set settings.followRedirects to false');

    const cli = await ferry(['-w', temp.root, 'run', '--start-servers']);
    expect(cli.stdout).toContain(`error: after a redirect (302 from http://127.0.0.1:${port}/download`);
  });
});
