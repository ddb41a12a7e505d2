/**
 * Watches the workspace folder so edits made outside the app (git pull, an editor) show up:
 * changes are gathered for a short moment, then `onChange` gets the changed paths once.
 */
import { watch, type FSWatcher } from 'node:fs';

/** Long enough to gather one save's rename + write, short enough to show an edit within a second. */
const GATHER_MS = 80;

export function watchWorkspace(root: string, onChange: (paths: string[]) => void): { close(): void } {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(root, { recursive: true }, (_event, name) => {
      const file = name ? String(name).replace(/\\/g, '/') : '';
      // Dot files (.git, editors' swap files, atomic writes' temporary files) are not the workspace's (2.1.7).
      if (file.split('/').some((part) => part.startsWith('.'))) return;
      pending.add(file);
      timer ??= setTimeout(() => {
        const paths = [...pending];
        pending = new Set();
        timer = undefined;
        onChange(paths);
      }, GATHER_MS);
    });
    watcher.on('error', () => undefined);
  } catch {
    // No watching on this file system: the app still works, edits show after a reload.
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
