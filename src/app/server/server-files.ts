/**
 * The ports the workspace's server files ask for, as a whole (a new server's port,
 * model/server.ts).
 */
import { isPlainObject } from '../../model/index.js';
import { parseYamlData, unreadEntryFiles, type Workspace } from '../../workspace/index.js';

/**
 * The ports the server files ask for (0, any free port, left out). A file that does not read
 * counts with its `port:` when its YAML has one: once fixed, it asks for that port. `readText`
 * gives a file's text (undefined when it cannot be read safely).
 */
export async function serverFilePorts(ws: Workspace, readText: (file: string) => Promise<string | undefined>): Promise<number[]> {
  const ports = ws.servers.map((entry) => entry.value.port);
  for (const warning of unreadEntryFiles(ws, 'server', true).values()) {
    const text = await readText(warning.file);
    const parsed = text === undefined ? undefined : parseYamlData(text);
    const port = parsed?.ok && isPlainObject(parsed.data) ? parsed.data.port : undefined;
    if (typeof port === 'number' && Number.isInteger(port)) ports.push(port);
  }
  return ports.filter((port) => port > 0);
}
