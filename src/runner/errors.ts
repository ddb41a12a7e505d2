/** A run that cannot start: the message says what is wrong and what to do. */
export class RunError extends Error {
  override name = 'RunError';
}
