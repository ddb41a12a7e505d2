/** The data that crosses into the sandbox once per phase, and the state carried between scripts. */
import type { ScopeState } from './variable-scopes.js';
import type { RequestData } from './request.js';
import type { ResponseData } from './response.js';

export type ScopeKey = 'environment' | 'collection' | 'globals' | 'local';

export interface State {
  request: RequestData;
  scopes: Record<ScopeKey, ScopeState>;
  /** Present once a script called setNextRequest: a name, or null to stop. */
  nextRequest?: string | null;
  nextRequestSet: boolean;
  skipRequest: boolean;
}

export interface Phase {
  event: 'prerequest' | 'test';
  info: { requestName: string; requestPath?: string; iteration: number; iterationCount?: number };
  environmentName?: string;
  iterationData: Record<string, unknown>;
  response?: ResponseData;
  state: State;
  /** Not sent: `pm.execution.location`, worked out by the phase's first script. */
  location?: string[];
}
