/** Sending (with cancel) and collection runs, through the session: the same pipeline as `ferry run`. */
import { randomUUID } from 'node:crypto';
import type { ProtocolResult } from '../../protocols/index.js';
import { RunError, SelectError, type RunEvent } from '../../runner/index.js';
import { BODY_LIMIT, type SendResponse } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import { requestFrom } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

function viewOf(response: ProtocolResult): NonNullable<SendResponse['response']> {
  const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  const contentType = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return {
    headers: response.headers,
    bodyBase64: body.subarray(0, BODY_LIMIT).toString('base64'),
    bodySize: body.length,
    truncated: body.length > BODY_LIMIT,
    contentType,
  };
}

/** A run's or send's own refusals (an unknown path, a bad environment) are the user's to fix: 400. */
function refusal(error: unknown): never {
  if (error instanceof RunError || error instanceof SelectError) throw new ApiError(400, error.message);
  throw error;
}

export function sendRoutes(state: WorkspaceState, live: LiveChannel): Routes {
  const inFlight = new Map<string, AbortController>();
  return {
    /** Sends what the editor holds (`request`, placed at `path`), or the saved file when `request` is absent. */
    'POST /api/send': async ({ body, signal }) => {
      const id = optionalField(body, 'id') ?? randomUUID();
      const requestPath = field(body, 'path');
      const target = (body as { request?: unknown }).request === undefined ? requestPath : { request: requestFrom(body), path: requestPath };
      const controller = new AbortController();
      inFlight.set(id, controller);
      const stop = () => controller.abort();
      signal.addEventListener('abort', stop);
      try {
        const { result, response } = await state.withSession((session) => session.exchange(target, { signal: controller.signal })).catch(refusal);
        const answer: SendResponse = { result, ...(response ? { response: viewOf(response) } : {}) };
        return answer;
      } finally {
        signal.removeEventListener('abort', stop);
        inFlight.delete(id);
      }
    },

    'POST /api/cancel': async ({ body }) => {
      const id = field(body, 'id');
      inFlight.get(id)?.abort();
      return { cancelled: inFlight.has(id) };
    },

    /** Starts a run; its events (progress, each result, the summary) arrive on the live channel. */
    'POST /api/run': async ({ body }) => {
      const runId = optionalField(body, 'runId') ?? randomUUID();
      const paths = (body as { paths?: unknown }).paths;
      if (paths !== undefined && (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string'))) throw new ApiError(400, '"paths" must be a list of request or folder paths.');
      const iterations = (body as { iterations?: unknown }).iterations;
      if (iterations !== undefined && (typeof iterations !== 'number' || !Number.isInteger(iterations) || iterations < 1)) {
        throw new ApiError(400, '"iterations" must be a whole number of 1 or more.');
      }
      const controller = new AbortController();
      inFlight.set(runId, controller);
      const reporter = { onEvent: (event: RunEvent) => live.publish({ type: 'run', runId, event }) };
      void state
        .withSession((session) => session.run((paths as string[] | undefined) ?? [], { iterations: iterations as number | undefined, reporters: [reporter], signal: controller.signal, keepResults: false }))
        .catch((error: unknown) => reporter.onEvent({ type: 'warning', message: `The run stopped: ${(error as Error).message}` }))
        .finally(() => inFlight.delete(runId));
      return { runId };
    },
  };
}
