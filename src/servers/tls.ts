/**
 * The certificate a TLS server presents (spec 2.11 `tls`, 5.3): the PEM files named by
 * `certPath`/`keyPath`, or, without paths, a self-signed certificate for localhost generated once
 * and kept in the data folder.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ServerFile } from '../model/index.js';
import { checkNoSymlinks, isInside } from '../support/paths-inside.js';
import { FileTooLargeError, isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { ServerError } from './errors.js';
import { localhostCertificate } from './self-signed.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where it came from, for messages: the file paths, or the generated certificate's file. */
  source: string;
  generated: boolean;
}

/** PEM files are small; anything bigger is not a certificate. */
const MAX_PEM_BYTES = 1024 * 1024;

export async function loadTls(
  server: ServerFile,
  where: { root: string; file: string; certificateDir?: string; allowFilesOutsideWorkspace?: boolean },
): Promise<TlsMaterial | undefined> {
  const tls = server.tls;
  if (!tls?.enabled) return undefined;
  const certPath = tls.certPath?.trim() || undefined;
  const keyPath = tls.keyPath?.trim() || undefined;
  if (!certPath && !keyPath) {
    const generated = await localhostCertificate(where.certificateDir);
    return { ...generated, generated: true };
  }
  if (!certPath || !keyPath) {
    const missing = certPath ? 'tls.keyPath' : 'tls.certPath';
    throw new ServerError(`${where.file}: ${missing} is missing. Give both certPath and keyPath (PEM files), or neither for a generated localhost certificate.`);
  }
  const cert = await readPem(certPath, 'tls.certPath', where);
  const key = await readPem(keyPath, 'tls.keyPath', where);
  try {
    new X509Certificate(cert);
  } catch (error) {
    throw new ServerError(`${where.file}: tls.certPath: ${certPath} is not a PEM certificate (${(error as Error).message}).`);
  }
  try {
    createPrivateKey(key);
  } catch (error) {
    throw new ServerError(`${where.file}: tls.keyPath: ${keyPath} is not a PEM private key (${(error as Error).message}); an encrypted key is not supported.`);
  }
  if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) {
    throw new ServerError(`${where.file}: tls.keyPath: ${keyPath} is not the private key of the certificate in ${certPath}.`);
  }
  return { cert, key, source: `${certPath} and ${keyPath}`, generated: false };
}

async function readPem(
  given: string,
  field: string,
  where: { root: string; file: string; allowFilesOutsideWorkspace?: boolean },
): Promise<string> {
  const absolute = path.resolve(where.root, given);
  const inside = isInside(where.root, absolute);
  if (!inside && !where.allowFilesOutsideWorkspace) {
    throw new ServerError(
      `${where.file}: ${field}: ${given} lies outside the workspace folder. Put the PEM file inside the workspace, or allow files outside the workspace on this computer (ferry config set filesOutsideWorkspace true, or filesOutsideWorkspace in the app's ⚙ Application settings).`,
    );
  }
  if (inside) {
    const problem = await checkNoSymlinks(where.root, absolute);
    if (problem) throw new ServerError(`${where.file}: ${field}: ${problem}.`);
  }
  const linked = () => new ServerError(`${where.file}: ${field}: ${given} is a symbolic link, and Ferry never follows links.`);
  const tooLarge = () => new ServerError(`${where.file}: ${field}: ${given} is over 1 MB; that is not a PEM file.`);
  try {
    const stat = await fs.lstat(absolute);
    if (stat.isSymbolicLink()) throw linked();
    if (!stat.isFile()) throw new ServerError(`${where.file}: ${field}: ${given} is not a file.`);
    if (stat.size > MAX_PEM_BYTES) throw tooLarge();
    // Opened without following a link (O_NOFOLLOW): one swapped in since the check is refused too.
    return await readFileNoFollow(absolute, 'utf8', MAX_PEM_BYTES);
  } catch (error) {
    if (error instanceof ServerError) throw error;
    if (isLinkError(error)) throw linked();
    if (error instanceof FileTooLargeError) throw tooLarge();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new ServerError(`${where.file}: ${field}: the file ${given} does not exist (looked at ${absolute}). Fix the path, or remove certPath and keyPath to use a generated localhost certificate.`);
    }
    throw new ServerError(`${where.file}: ${field}: cannot read ${given} (${code ?? (error as Error).message}).`);
  }
}
