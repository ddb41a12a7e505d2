/** This computer's data folder: secrets, script-set values, cookies, tokens, history, settings. */
export { dataDir, moveJournalFile, settingsFile, workspaceDataDir } from './paths.js';
export { DataFolderError, JsonStore, refuseLinkedFolder } from './json-store.js';
export { SecretStore } from './secrets.js';
export { ENVIRONMENT_CHANGES_KEPT, type EnvironmentMark, type HeldEnvironmentChanges } from './environment-changes.js';
export { WorkspaceData, HISTORY_LIMIT, type CachedToken, type HistoryEntry, type ScriptScope } from './workspace-data.js';
export {
  certificatePassphrase, CLIENT_CERTIFICATES_FIX, DEFAULT_SETTINGS, proxyWithCredentials, readCertificateFiles, readSettings, readStoredCaFiles, setSetting,
  SettingChangedError, SettingFileError, SettingsError, storedSettingMessage, type AppSettings,
} from './settings.js';
export { CERT_FILE, KEY_FILE, certificateFolder, readStoredCertificate, storeCertificate, storedOrMadeCertificate, type StoredCertificate } from './certificates.js';
export { KnownServers, serverFingerprint } from './known-servers.js';
export { AllowedPrograms, AmbiguousProgramIdError, programKey, programPolicy, type AllowedProgram, type ProgramToAllow } from './programs.js';
export { readCookieJarFile, updateCookieJarFile } from './cookie-jar-file.js';
export { lockWorkspace, withWorkspaceLock, WorkspaceBusyError, type LockOptions, type WorkspaceLocker } from './workspace-lock.js';
export { RESULTS_KEPT, SendResults, sendResultKey } from './send-results.js';
