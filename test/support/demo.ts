/** A copy of examples/demo whose servers listen on free ports instead of 4010 (API) and 4011 (events). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { freePort } from './servers/index.js';
import { tempDir } from './temp.js';

export const DEMO = path.join(import.meta.dirname, '..', '..', 'examples', 'demo');

export interface DemoCopy {
  root: string;
  apiPort: number;
  eventsPort: number;
}

/** The files that name the demo's ports: the workspace variables and the two servers. */
const FILES_WITH_PORTS = ['ferry.yaml', 'servers/api.yaml', 'servers/events.yaml'];

export async function demoCopy(): Promise<DemoCopy> {
  const root = path.join(await tempDir(), 'demo');
  await fs.cp(DEMO, root, { recursive: true });
  const apiPort = await freePort();
  const eventsPort = await freePort();
  for (const file of FILES_WITH_PORTS) {
    const full = path.join(root, file);
    const text = await fs.readFile(full, 'utf8');
    await fs.writeFile(full, text.replaceAll('4010', String(apiPort)).replaceAll('4011', String(eventsPort)));
  }
  return { root, apiPort, eventsPort };
}
