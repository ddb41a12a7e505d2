/**
 * The kept document an imported folder links (`openapi.spec`): read back for the three-way
 * rule. Only inside the workspace, never through a link, at most 50 MB.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { checkNoSymlinks, SPECS_DIR } from '../../../workspace/index.js';
import { MAX_DOCUMENT_BYTES, type JsonObject, type SpecVersionInfo } from '../../../openapi-document/index.js';
import { parseSpecText, requireSpec } from '../parse.js';

export type OldDocument = { ok: true; root: JsonObject; info: SpecVersionInfo; text: string } | { ok: false; reason: string };

/**
 * `openapi.spec` when it names a document under specs/ (spec 2.9), else undefined: an update
 * never reads or replaces anything else (a request file, ferry.yaml) through a mistaken or
 * hostile `_folder.yaml`.
 */
export function keptSpecPath(specPath: string | undefined): string | undefined {
  if (!specPath || specPath.includes('\\') || specPath.includes('\0')) return undefined;
  const parts = specPath.split('/');
  if (parts[0] !== SPECS_DIR || parts.length < 2 || parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return /\.(json|ya?ml)$/i.test(specPath) ? specPath : undefined;
}

export async function readOldDocument(workspaceRoot: string, specPath: string | undefined): Promise<OldDocument> {
  if (!specPath) return { ok: false, reason: 'the folder does not name its kept document (openapi.spec)' };
  if (keptSpecPath(specPath) === undefined) {
    return { ok: false, reason: `openapi.spec "${specPath}" is not a .json or .yaml file under ${SPECS_DIR}/` };
  }
  const problem = await checkNoSymlinks(workspaceRoot, specPath);
  if (problem) return { ok: false, reason: problem };
  const absolute = path.join(workspaceRoot, specPath);
  let text: string;
  try {
    const stat = await fs.lstat(absolute);
    if (!stat.isFile()) return { ok: false, reason: `${specPath} is not a file` };
    if (stat.size > MAX_DOCUMENT_BYTES) return { ok: false, reason: `${specPath} is larger than 50 MB` };
    text = await fs.readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `${specPath} is missing` : `${specPath} cannot be read: ${(error as Error).message}` };
  }
  try {
    const parsed = parseSpecText(text, specPath);
    const { root, info } = requireSpec(parsed.data, specPath);
    return { ok: true, root, info, text };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
