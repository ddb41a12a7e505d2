/**
 * A save's check that the file still holds what the page read: the page sends `base` (the
 * resource as it last read it), and when an editor or git changed the file before the watcher's
 * reload, nothing is written — a 409 with the file's version for the page to offer, as request
 * saves do.
 */
import path from 'node:path';
import { deepEqual, type ResourceKind, type ResourceValue } from '../../model/index.js';
import { formatWarning, readResource } from '../../workspace/index.js';
import { ApiError } from './router.js';

/**
 * Refuses the save (409) unless `relative`'s resource equals `base` (parsed by the caller;
 * undefined when it did not parse); `answer` gives the refusal's data from the file's version.
 */
export async function checkFileHolds<K extends ResourceKind>(
  kind: K,
  root: string,
  relative: string,
  base: unknown,
  answer: (current: ResourceValue<K>) => Record<string, unknown> | Promise<Record<string, unknown>>,
): Promise<void> {
  const current = await readResource(kind, path.join(root, relative), relative);
  if (!current.ok) throw new ApiError(409, `${formatWarning(current.warning)}; nothing was saved.`);
  const value = current.value as ResourceValue<K>;
  if (!deepEqual(base, value)) throw new ApiError(409, `${relative} changed on disk since the app read it; nothing was saved.`, await answer(value));
}
