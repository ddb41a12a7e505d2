/** The data that crosses into the sandbox once per phase, and the state carried between scripts. */
import { json } from './intrinsics.js';
import type { ScopeState } from './variable-scopes.js';
import type { RequestData } from './request.js';
import type { ResponseData } from './response.js';

export type ScopeKey = 'environment' | 'collection' | 'globals' | 'local';

export interface State {
  /** Parsed from `Phase.requestJson` when a script first reads the request (`phaseRequest`). */
  request?: RequestData;
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
  environmentId?: string;
  iterationData: Record<string, unknown>;
  response?: ResponseData;
  state: State;
  /** The request as the host sent it (JSON apart from the rest: most post-response scripts never read it). */
  requestJson: string;
  /** Not sent: `pm.execution.location`, worked out by the phase's first script. */
  location?: string[];
}

/**
 * The request's id for scripts (`pm.info.requestId`, `pm.request.id`, the legacy `request.id`):
 * its path (`Users/Get user.yaml`), the same on every run, and what `setNextRequest` takes, as
 * Postman's item id is; a request that has no path (not saved) goes by its name.
 */
export function requestIdOf(phase: Phase): string {
  return phase.info.requestPath ?? phase.info.requestName;
}

/** The request as the phase's scripts have left it so far, parsed from what the host sent on first use. */
export function phaseRequest(phase: Phase): RequestData {
  phase.state.request ??= json.parse(phase.requestJson) as RequestData;
  return phase.state.request;
}
