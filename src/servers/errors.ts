/** A server that cannot start (or cannot take an edit): the message says what, where and what to do. */
export class ServerError extends Error {
  override name = 'ServerError';
  /** The system error code behind it, when a port could not be bound (`EADDRINUSE`…). */
  code?: string;
}
