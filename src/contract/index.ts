/**
 * The OpenAPI contract check (`Matches the API spec`, spec 7.1). Imports only the document
 * reader (openapi-document/) and support/.
 *
 * The runner makes one `ContractDocuments` per run and calls `contractTestFor` after each HTTP
 * response; `null` means the check is left out and no test is shown.
 */
export { contractTestFor, checkResponse, linkedDocumentPath, type ContractCheckInput } from './check.js';
export { ContractDocuments, documentFromValue, loadDocumentSync, parseDocumentText, type DocumentLoad, type LoadedDocument } from './documents.js';
export { CONTRACT_TEST_NAME, contractTestName, messages as contractMessages } from './messages.js';
export { RequestValidator, type RequestParts } from './request-check.js';
export { Problems, SchemaChecker } from './schema-check.js';
export { findResponseKey, documentedStatuses } from './response-selection.js';
export type { Dialect } from '../openapi-document/index.js';
export type {
  ContractFolder,
  ContractFolderLink,
  ContractHeaders,
  ContractRequest,
  ContractRequestLink,
  ContractResponse,
  ContractTestResult,
} from './types.js';
