/**
 * Resources (read-only): the workspace's files, as `ferry://workspace/<path>`, and the report of
 * the last run, as `ferry://run/last`. Files are read as the workspace reads them: dot files are
 * left out, symbolic links never followed, regular files only (a pipe is never opened), nothing
 * outside the folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FileTooLargeError, isLinkError, NotRegularFileError, readFileNoFollow } from '../support/read-no-follow.js';
import { checkNoSymlinks, isInside, notRegularFile, specialFileWords } from '../workspace/index.js';
import { AgentError } from './errors.js';
import { LIMITS } from './limits.js';
import { maskDeep, maskText } from '../variables/workspace-mask.js';
import type { AgentState } from './state.js';

const PREFIX = 'ferry://workspace/';
export const LAST_RUN_URI = 'ferry://run/last';

const MIME: Record<string, string> = { '.yaml': 'application/yaml', '.yml': 'application/yaml', '.json': 'application/json', '.md': 'text/markdown', '.proto': 'text/plain', '.csv': 'text/csv' };

function uriOf(relative: string): string {
  return PREFIX + relative.split('/').map(encodeURIComponent).join('/');
}

/** Files under `root`, shallow first, without dot files and links; at most `LIMITS.resourceFiles`. */
async function workspaceFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  let level = [''];
  for (let depth = 0; depth <= 33 && level.length > 0 && out.length < LIMITS.resourceFiles; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const relative = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) next.push(relative);
        else if (entry.isFile() && out.length < LIMITS.resourceFiles) out.push(relative);
      }
    }
    level = next;
  }
  return out;
}

export function registerResources(server: McpServer, state: AgentState): void {
  server.registerResource(
    'workspace-file',
    new ResourceTemplate(`${PREFIX}{+path}`, {
      list: async () => {
        const ws = await state.workspace();
        const files = await workspaceFiles(ws.root);
        return { resources: files.map((file) => ({ uri: uriOf(file), name: file, mimeType: MIME[path.extname(file).toLowerCase()] ?? 'text/plain' })) };
      },
    }),
    { title: 'Workspace file', description: 'A file of the Ferry workspace (requests, environments, servers, specs), read-only. Secret values are not in these files; they stay on this computer.' },
    async (uri) => {
      const ws = await state.workspace();
      const encoded = uri.href.startsWith(PREFIX) ? uri.href.slice(PREFIX.length) : '';
      let relative: string;
      try {
        relative = encoded.split('/').map(decodeURIComponent).join('/');
      } catch {
        throw new AgentError(`${uri.href} is not a valid file address; use the addresses resources/list gives.`);
      }
      const parts = relative.split('/');
      // A NUL or other control character names no workspace file (Node refused a NUL with its own message, naming this computer's path).
      if (relative === '' || parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.') || /[\u0000-\u001f\u007f]/.test(p))) {
        throw new AgentError(`${uri.href}: give a file path inside the workspace, without . or .. parts, dot files or control characters.`);
      }
      const absolute = path.resolve(ws.root, ...parts);
      if (!isInside(ws.root, absolute)) throw new AgentError(`${relative} lies outside the workspace folder.`);
      const linked = await checkNoSymlinks(ws.root, relative);
      if (linked) throw new AgentError(`Cannot read ${relative}: ${linked}.`);
      const missing = () => new AgentError(`There is no file ${relative} in the workspace.`);
      const folder = () => new AgentError(`${relative} is a folder, not a file; resources/list gives the files.`);
      const notRegular = (what: string) => new AgentError(`${notRegularFile(relative, what)}, so it cannot be read here. resources/list gives the files.`);
      // What is there, from lstat: a pipe, socket or device is said and never opened. The read
      // below checks again (O_NOFOLLOW, a regular file only), for one swapped in meanwhile.
      const stat = await fs.lstat(absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
        throw error;
      });
      if (!stat) throw missing();
      if (stat.isDirectory()) throw folder();
      if (!stat.isFile() && !stat.isSymbolicLink()) throw notRegular(specialFileWords(stat));
      let text: string;
      try {
        text = await readFileNoFollow(absolute, 'utf8', LIMITS.resourceBytes);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (error instanceof FileTooLargeError) throw new AgentError(`${relative} is larger than ${LIMITS.resourceBytes} bytes; read it from the disk instead.`);
        if (isLinkError(error)) throw new AgentError(`${relative} is a symbolic link, and Ferry never follows links.`);
        if (code === 'ENOENT' || code === 'ENOTDIR') throw missing();
        if (code === 'EISDIR') throw folder();
        // Swapped in after the look above (a socket fails to open with ENXIO).
        if (error instanceof NotRegularFileError || code === 'ENXIO') throw notRegular('a named pipe, a socket or a device');
        throw error;
      }
      const mask = await state.mask(ws);
      return { contents: [{ uri: uri.href, mimeType: MIME[path.extname(relative).toLowerCase()] ?? 'text/plain', text: maskText(text, mask) }] };
    },
  );

  server.registerResource(
    'last-run',
    LAST_RUN_URI,
    { title: 'Last run report', description: 'The JSON report of the last run tool call of this session (as `ferry run -r json` writes it).', mimeType: 'application/json' },
    async (uri) => {
      if (!state.lastRun) throw new AgentError('No run yet in this session: call the run tool first.');
      const ws = await state.workspace();
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(maskDeep(state.lastRun, await state.mask(ws)), null, 2) }] };
    },
  );
}
