/**
 * Debian's nginx as a reverse proxy in front of Ferry's servers, as users put it: a config written
 * to a temp folder (listen on 127.0.0.1, pid, logs and temp files there), run in the foreground
 * as the current user, ready once its port accepts connections.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

export interface Nginx {
  url: string;
  port: number;
  close(): Promise<void>;
}

const binary = () => spawnSync('sh', ['-c', 'command -v nginx || (test -x /usr/sbin/nginx && echo /usr/sbin/nginx)'], { encoding: 'utf8' }).stdout.trim();

/** Why nginx cannot be started here, or undefined when it can. */
export function nginxMissing(): string | undefined {
  return binary() === '' ? 'nginx is not installed (apt-get install nginx-light; .ci/install-peers.sh does it)' : undefined;
}

/** `locations`: the `location` blocks of the one server, in nginx's own syntax. */
export async function startNginx(locations: string): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ferry-nginx-'));
  const port = await freePort();
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, `
worker_processes 1;
daemon off;
${process.getuid?.() === 0 ? `user ${userInfo().username};` : ''} # as root, nginx's workers would be nobody and lose this folder
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:${port};
    ${locations}
  }
}
`);
  const child = spawn(binary(), ['-c', config, '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before it listened: ${said.trim()}`);
    if (await accepts(port)) break;
    if (Date.now() - started > 10_000) throw new Error(`nginx did not listen on ${port} within 10 s: ${said.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
