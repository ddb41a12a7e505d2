/**
 * Imports (spec 4.1–4.6): recognize the input, turn it into an ImportResult, and commit it to a
 * workspace all or nothing. The CLI and the app call these.
 */
import { importCurl, type CurlImportOptions } from './curl/index.js';
import { checkImportSize, detect, inputNamed, inputSubject } from './detect.js';
import { importEnvironment } from './environment.js';
import { importOpenApi, importOpenApiAsServer } from './openapi/index.js';
import { importPostman } from './postman/index.js';
import { readInput, type DownloadNetwork } from './source.js';
import { ImportError, type ImportResult, type ImportSource } from './types.js';

export * from './types.js';
export { commitImport, mergeVariables, type CommitOptions, type CommitTarget } from './commit.js';
export { hasImportJournal, recoverInterruptedImport, type ImportRecovery } from './import-journal.js';
export { detect, decodeText, readImportFile, tooLarge, MAX_IMPORT_BYTES, MAX_IMPORT_JSON_BYTES, PASTED, SUPPORTED_FORMATS, type Detected } from './detect.js';
export { readInput, download, type ImportInput, type DownloadNetwork } from './source.js';
export { importCurl, curlToRequest } from './curl/index.js';
export { importPostman } from './postman/index.js';
export { importEnvironment } from './environment.js';
export { NoBaseUrlError } from './openapi/index.js';

export interface ConvertOptions {
  /** Display name for the imported folder, environment or request. */
  name?: string;
  /** Depth of the target folder below `requests/` (for the 32-level limit). */
  baseDepth?: number;
  /** OpenAPI: base URL when the document has none. */
  baseUrl?: string;
  /** OpenAPI: the workspace folder, so an in-workspace source file is recorded as `openapi.source`. */
  workspaceRoot?: string;
  curl?: CurlImportOptions;
  /** OpenAPI: write a mock API server (`servers/`) instead of requests (`--as-server`). */
  asServer?: boolean;
}

/** Turns an import's text into an ImportResult (nothing is written). */
export async function convert(text: string, source: ImportSource, options: ConvertOptions = {}): Promise<ImportResult> {
  checkImportSize(text, inputNamed(source.label, 'The import '));
  const detected = detect(text, inputSubject(source));
  if (options.asServer && detected.kind !== 'openapi') {
    throw new ImportError(`--as-server makes a mock API from an OpenAPI or Swagger document; ${source.label} is not one.`);
  }
  switch (detected.kind) {
    case 'postman':
      return importPostman(detected.collection, { name: options.name, baseDepth: options.baseDepth });
    case 'environment':
    case 'globals':
      return importEnvironment(detected.document, detected.kind, { name: options.name, source });
    case 'curl':
      return importCurl(detected.text, { ...options.curl, name: options.name });
    case 'openapi':
      if (options.asServer) {
        return importOpenApiAsServer({ document: detected.document, format: detected.format, version: detected.version, text, source, name: options.name, workspaceRoot: options.workspaceRoot });
      }
      return importOpenApi({ document: detected.document, format: detected.format, version: detected.version, text, source, name: options.name, baseUrl: options.baseUrl, workspaceRoot: options.workspaceRoot });
  }
}

/** Reads a file path, URL (through `network`: the proxy settings) or `-` (`stdin`, the process's when not given) and converts it. */
export async function convertInput(spec: string, options: ConvertOptions = {}, network?: DownloadNetwork, stdin?: AsyncIterable<Uint8Array | string>): Promise<ImportResult> {
  const input = await readInput(spec, network, 'import', stdin);
  return convert(input.text, input.source, options);
}
