/**
 * What a server kind provides to the shared listener: one instance per running server, which
 * compiles its settings (again on every edit) and answers requests with the current ones.
 */
import type { ServerFile, ServerKind } from '../../model/index.js';
import type { VariableScope } from '../../template/index.js';
import type { AnyRequest, AnyResponse } from '../http-types.js';
import { ServerError } from '../errors.js';
import type { TrafficLog } from '../traffic.js';

/** The longest wait a timer can hold (2^31 − 1 ms, about 24.8 days); Node fires longer ones after 1 ms. */
export const MAX_WAIT_MS = 2_147_483_647;

/** Refuses a `delayMs` / `intervalMs` a timer cannot hold, instead of answering at once. */
export function checkWait(ms: number, field: string, file: string): void {
  if (ms > MAX_WAIT_MS) {
    throw new ServerError(`${file}: ${field}: ${ms} ms is longer than a server can wait; give at most ${MAX_WAIT_MS} (about 24 days).`);
  }
}

export interface KindContext {
  /** The server's id (file name without `.yaml`). */
  id: string;
  /** The server file, relative to the workspace, for messages. */
  file: string;
  traffic: TrafficLog;
}

export interface KindSettings {
  server: ServerFile;
  variables: VariableScope;
}

export interface KindInstance {
  /** Compiles the settings and switches to them; throws a ServerError (keeping the previous ones) on a problem. */
  configure(settings: KindSettings): void;
  handle(req: AnyRequest, res: AnyResponse): void;
  /** Open event streams (0 for kinds without streams). */
  openStreams(): number;
  /** Sends an event to every open stream now (SSE); absent for kinds without streams. */
  push?(data: string, name?: string): number;
  /** Ends streams and pending timers; the listener is closing. */
  close(): void;
}

export interface ServerKindModule {
  kind: ServerKind;
  create(context: KindContext): KindInstance;
}
