/**
 * The only three functions the host gives the sandbox. They take a string or a number; they are taken
 * off the global object at start-up and kept in this closure.
 */
interface HostFunctions {
  /**
   * Evaluates a bundled module (only names in the bundle list) and returns its exports. The host
   * evaluates it under its own file name, so line numbers in scripts' errors stay the script's.
   */
  loadModule(name: string): unknown;
  /** `count` random bytes from the host's CSPRNG, as hex. */
  randomHex(count: number): string;
  /** The current phase's response body as text; throws, naming the request, when it does not fit in the memory limit. */
  responseBody(): string;
}

declare const globalThis: { __ferryHost?: HostFunctions } & Record<string, unknown>;

const captured = globalThis.__ferryHost;
delete globalThis.__ferryHost;

export const host: HostFunctions = captured ?? {
  loadModule: () => {
    throw new Error('Ferry sandbox: module loader missing');
  },
  randomHex: () => {
    throw new Error('Ferry sandbox: random source missing');
  },
  responseBody: () => {
    throw new Error('Ferry sandbox: response body source missing');
  },
};
