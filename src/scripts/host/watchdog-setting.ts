/**
 * Whether each call into a sandbox runs under V8's watchdog (`SandboxHost.watched` in
 * runtime.ts), which stops a script stuck inside one of QuickJS's built-ins that loop in C without
 * looking at the time. Arming it starts a thread per call (~40 µs of CPU, more on a busy machine):
 * that doubled the scripts' cost per request in `ferry run` (issue 24 keeps it under 0.3 ms). So
 * the processes that stay and serve others turn it on at start (`ferry app`, `ferry mcp`), where
 * one stuck script would hold every later send; a run (`ferry run`, its CI job) leaves it off and
 * ends as any stuck program does (killed, or at its job's time limit). A module of its own so that
 * turning it on loads nothing of the sandbox.
 */
let armed = false;

export function armScriptWatchdog(on = true): void {
  armed = on;
}

export function scriptWatchdogArmed(): boolean {
  return armed;
}
