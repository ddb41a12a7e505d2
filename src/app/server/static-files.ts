/** The built UI (Vite's output in dist/app/web), served as files; unknown paths get index.html (one page). */
import { existsSync, promises as fs } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { packageRoot } from '../../support/package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Where the built UI is (dist/app/web of Ferry's folder, from source too), if it is built. */
export function findWebRoot(): string | undefined {
  const webRoot = path.join(packageRoot, 'dist', 'app', 'web');
  return existsSync(path.join(webRoot, 'index.html')) ? webRoot : undefined;
}

export async function serveStatic(webRoot: string | undefined, urlPath: string, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  if (!webRoot) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The app\'s web UI is not built. Run `npm run build` in the Ferry folder, then start `ferry app` again.\n');
    return;
  }
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    relative = '';
  }
  // Only files inside the UI's folder: no `..`, no dot files.
  const safe = relative !== '' && !relative.split('/').some((p) => p === '..' || p.startsWith('.'));
  let file = safe ? path.join(webRoot, relative) : path.join(webRoot, 'index.html');
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    file = path.join(webRoot, 'index.html');
    body = await fs.readFile(file);
  }
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  // Hashed asset names never change content; the page itself is always fetched again.
  const cache = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-store';
  res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': cache, 'content-length': String(body.length) });
  res.end(body);
}
