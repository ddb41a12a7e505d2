/**
 * A run, a send or a load test that cannot start (an unknown environment, say): the message says
 * what is wrong and what to do. Declared here, below every consumer, so one class serves the
 * runner, the session and the load engine (`runner/errors.ts` re-exports it).
 */
export class RunError extends Error {
  override name = 'RunError';
}

/** No environment of that id or name (not one whose file cannot be read): `ferry env rm` of it has nothing to delete. */
export class NoEnvironmentError extends RunError {
  override name = 'NoEnvironmentError';
  /** `known`: the sentence naming the environments there are. */
  constructor(readonly wanted: string, readonly known: string) {
    super(`No environment "${wanted}". ${known}`);
  }
}
