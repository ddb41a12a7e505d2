/**
 * What the app reads of the workspace's server files as a whole: those that do not read (listed
 * with their error), and the ports all of them ask for (a new server's port, model/server.ts).
 */
import { isPlainObject } from '../../model/index.js';
import { parseYamlData, SERVERS_DIR, type Warning, type Workspace } from '../../workspace/index.js';

/** Server files that do not read, by id (a file may have several warnings: the first). */
export function brokenServerFiles(ws: Workspace): Map<string, Warning> {
  const broken = new Map<string, Warning>();
  for (const warning of ws.warnings) {
    const rest = warning.file.slice(SERVERS_DIR.length + 1);
    if (!warning.file.startsWith(`${SERVERS_DIR}/`) || rest.includes('/')) continue;
    const id = rest.replace(/\.ya?ml$/, '');
    if (!broken.has(id)) broken.set(id, warning);
  }
  return broken;
}

/**
 * The ports the server files ask for (0, any free port, left out). A file that does not read
 * counts with its `port:` when its YAML has one: once fixed, it asks for that port. `readText`
 * gives a file's text (undefined when it cannot be read safely).
 */
export async function serverFilePorts(ws: Workspace, readText: (file: string) => Promise<string | undefined>): Promise<number[]> {
  const ports = ws.servers.map((entry) => entry.value.port);
  for (const warning of brokenServerFiles(ws).values()) {
    const text = await readText(warning.file);
    const parsed = text === undefined ? undefined : parseYamlData(text);
    const port = parsed?.ok && isPlainObject(parsed.data) ? parsed.data.port : undefined;
    if (typeof port === 'number' && Number.isInteger(port)) ports.push(port);
  }
  return ports.filter((port) => port > 0);
}
