/**
 * Whether a server file's settings would start, without binding anything: the kind compiles them
 * (`configure`) as a start would, and the instance is closed at once. For editors that save a
 * file and want to say "saved, but it will not start: …" (the format's schema has already passed).
 */
import { EMPTY_SCOPE } from '../template/index.js';
import { ServerError } from './errors.js';
import { placeRefusal } from './refusal-place.js';
import { loadServerKind } from './kinds/index.js';
import type { ServerEntry } from './server.js';
import { TrafficLog } from './traffic.js';

/** The refusal a start would give (one line naming the file and field), or undefined when the settings compile. */
export async function checkServerSettings(entry: ServerEntry, root: string): Promise<string | undefined> {
  try {
    const module = await loadServerKind(entry.value.kind, entry.file);
    const instance = module.create({ id: entry.id, file: entry.file, traffic: new TrafficLog(1), root });
    try {
      instance.configure({ server: entry.value, variables: EMPTY_SCOPE });
    } finally {
      instance.close();
    }
    return undefined;
  } catch (error) {
    return error instanceof ServerError ? placeRefusal(error.message, entry.file, root) : `${entry.file}: ${(error as Error).message}`;
  }
}
