/**
 * Watches this computer's application settings file (appdata/settings.ts) while the app runs, so
 * a change made outside the page (`ferry config set` in a terminal, an editor, another app) shows
 * in an open Application settings dialog. Polled, a stat twice a second, not `fs.watch`: the data
 * folder does not exist until Ferry first writes there (a fresh computer starts the app without
 * it), and a poll sees the file appear, change (an atomic save is a new file) or go.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** A change shows within a second, as a workspace file's does (watch.ts). */
const POLL_MS = 500;

export function watchSettingsFile(file: string, onChange: () => void): { close(): void } {
  // Any write changes one of these (a save renamed over it is another inode); a read changes none.
  const listener = (now: Stats, before: Stats) => {
    if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) onChange();
  };
  // Not persistent: the app's exit does not wait for it.
  watchFile(file, { interval: POLL_MS, persistent: false }, listener);
  return { close: () => unwatchFile(file, listener) };
}
