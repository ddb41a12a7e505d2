/**
 * What a request is filled with, for every face and engine that sends: environment resolution,
 * data files (`--data`), a run's or session's live variables, secret scopes and secret masking.
 * Below runner/, session/ and load/, so all three share it; it imports request/ and lower.
 */
export { activeEnvironmentMessage, listEnvironments, resolveEnvironment, type ActiveEnvironmentNotice, useEnvironment, type EnvironmentRow } from './environment.js';
export { readDataFile, dataRows, asText, rowText, parseCsv, DataFileError, type CsvRecord, type DataRow } from './data-file.js';
export { RunVariables } from './run-variables.js';
export { SecretMask, SECRET_MASK, type MaskableResult } from './secret-mask.js';
export { NoEnvironmentError, RunError } from './errors.js';
export {
  SecretScopeError,
  workspaceSecretScope,
  environmentSecretScopes,
  secretScopeFor,
  secretVariable,
  listSecretVariables,
  type SecretScope,
  type SecretRow,
} from './secret-scopes.js';
