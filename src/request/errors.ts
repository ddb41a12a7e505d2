/** A saved request that cannot be turned into a wire-ready one; the message says why and what to do. */
export class PrepareError extends Error {
  override name = 'PrepareError';
}
