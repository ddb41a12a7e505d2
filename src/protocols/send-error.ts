/** A send that failed without a usable response, for every request kind: one line for people (what, where, what to do). */
/** `invalid`: the request as written cannot be sent (bad hex, a port out of range, an unknown DNS type…); found before anything is sent. */

export type SendErrorKind = 'timeout' | 'refused' | 'unknownHost' | 'tls' | 'redirects' | 'reset' | 'protocol' | 'tooLarge' | 'unsupported' | 'invalid' | 'proxy' | 'other';

export class SendError extends Error {
  override name = 'SendError';
  constructor(
    message: string,
    readonly kind: SendErrorKind,
  ) {
    super(message);
  }
}

/**
 * Where a timeout message says the limit came from: the request's `settings.timeoutMs` as the run
 * resolved it. A face that set the limit itself (`ferry run --timeout-ms`) puts its own name in
 * its place (runner/send.ts), so the words live here once.
 */
export const TIMEOUT_SETTING = '(settings.timeoutMs)';
