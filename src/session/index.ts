/** The one session API both faces use: open a workspace for use, then send and run in a session. */
export { Session, UnknownConnectionError, type ConnectOptions, type OpenConnection, type SessionOptions, type SendTarget, type SendOptions, type UnsavedRequest } from './session.js';
export { openWorkspaceForUse, type OpenForUseOptions } from './open-workspace.js';
export { carryEnvironmentMark, environmentMarkOf, markingRead } from './environment-mark.js';
