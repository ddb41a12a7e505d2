/** A server that cannot start (or cannot take an edit): the message says what, where and what to do. */
export class ServerError extends Error {
  override name = 'ServerError';
}
