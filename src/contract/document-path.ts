/**
 * Finding a kept document on disk without leaving the workspace folder: the path must be
 * relative, must not climb with `..`, and no part of it may be a symbolic link (spec 2.1.7, 7.1).
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';

export type DocumentPathResult =
  | { ok: true; absolutePath: string; size: number; mtimeMs: number }
  | { ok: false; reason: string };

/** Splits a workspace-relative path into its parts, or says why it is not allowed. */
export function documentPathParts(relativePath: string): string[] | string {
  if (relativePath.trim() === '') return 'the document path is empty';
  if (relativePath.includes('\0')) return 'the document path contains a NUL character';
  // Absolute in POSIX or Windows form (`/x`, `\x`, `C:x`, `\\server\share`).
  if (/^[\\/]/.test(relativePath) || /^[a-zA-Z]:/.test(relativePath)) {
    return `the document path ${relativePath} is absolute; it must be relative to the workspace folder`;
  }
  const parts = relativePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return `the document path ${relativePath} uses "..", which would leave the workspace folder`;
  if (parts.length === 0) return 'the document path names no file';
  return parts;
}

/**
 * Checks every component below the workspace folder with `lstat`, so a symbolic link anywhere
 * on the way (folder or file) is refused rather than followed. This runs before every check,
 * so it uses the synchronous calls: a few microseconds each, where a trip through the thread
 * pool costs milliseconds on a busy machine.
 */
export function locateDocument(workspaceRoot: string, relativePath: string): DocumentPathResult {
  const parts = documentPathParts(relativePath);
  if (typeof parts === 'string') return { ok: false, reason: parts };
  let current = path.resolve(workspaceRoot);
  for (let index = 0; index < parts.length; index++) {
    current = path.join(current, parts[index]!);
    let info;
    try {
      info = lstatSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { ok: false, reason: `the document ${relativePath} cannot be read (${code ?? String(error)})` };
    }
    if (info.isSymbolicLink()) {
      return { ok: false, reason: `the document path ${relativePath} passes a symbolic link at ${parts.slice(0, index + 1).join('/')}` };
    }
    const isLast = index === parts.length - 1;
    if (!isLast && !info.isDirectory()) return { ok: false, reason: `${parts.slice(0, index + 1).join('/')} is not a folder` };
    if (isLast) {
      if (!info.isFile()) return { ok: false, reason: `the document ${relativePath} is not a file` };
      return { ok: true, absolutePath: current, size: info.size, mtimeMs: info.mtimeMs };
    }
  }
  return { ok: false, reason: 'the document path names no file' };
}
