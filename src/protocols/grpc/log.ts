/**
 * grpc-js's log, kept off the terminal (a run's output is Ferry's: `--reporter json` on stdout,
 * Ferry's lines on stderr). grpc-js prints its errors to stderr itself, e.g. "E Failed to add
 * metadata entry …" for an answer's header it drops, and more when GRPC_VERBOSITY or GRPC_TRACE
 * is set in the environment. Its lines are taken here instead: the one Ferry needs (why a proxy
 * tunnel failed) is kept for the call's message, the others are left out.
 */
import * as grpc from '@grpc/grpc-js';

let lastProxyLine: string | undefined;
let installed = false;

/** Routes grpc-js's log here (once per process), whatever GRPC_VERBOSITY and GRPC_TRACE say. */
export function quietGrpcLog(): void {
  if (installed) return;
  installed = true;
  const ignore = () => {};
  grpc.setLogger({
    error: (message: unknown) => {
      const proxyLine = /Failed to connect to (proxy \S+ with error .*|\S+ through proxy \S+ with status \d+)/.exec(String(message));
      if (proxyLine) lastProxyLine = `Failed to connect to ${proxyLine[1]}`;
    },
    info: ignore,
    debug: ignore,
  });
  // Traces (GRPC_TRACE) are written at DEBUG: not even formatted.
  grpc.setLogVerbosity(grpc.logVerbosity.ERROR);
}

/** grpc-js's last line on a failed proxy tunnel (once: taking it clears it). */
export function takeProxyLine(): string | undefined {
  const line = lastProxyLine;
  lastProxyLine = undefined;
  return line;
}
