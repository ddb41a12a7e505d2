/** A send that failed without a usable response, for every request kind: one line for people (what, where, what to do). */

export type SendErrorKind = 'timeout' | 'refused' | 'unknownHost' | 'tls' | 'redirects' | 'reset' | 'protocol' | 'tooLarge' | 'unsupported' | 'other';

export class SendError extends Error {
  override name = 'SendError';
  constructor(
    message: string,
    readonly kind: SendErrorKind,
  ) {
    super(message);
  }
}
