/**
 * A run, a send or a load test that cannot start (an unknown environment, say): the message says
 * what is wrong and what to do. Declared here, below every consumer, so one class serves the
 * runner, the session and the load engine (`runner/errors.ts` re-exports it).
 */
export class RunError extends Error {
  override name = 'RunError';
}
