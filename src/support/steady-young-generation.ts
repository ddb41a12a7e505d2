/**
 * V8 allocates new objects in a young generation that it doubles (up to 16 MB per semi-space)
 * each time many of them survive a collection. An import builds one large structure that all
 * survives (the parsed document: ~25 MB for GitHub's 2.7 MB OpenAPI file), so the growth buys
 * nothing: the survivors are copied to the old generation anyway, and every fresh page of the
 * larger young generation is a page fault, which costs CPU on this kind of machine (~17 µs each).
 * Keeping the young generation at its starting size took GitHub's whole `ferry import` from
 * ~22,600 to ~15,300 page faults and ~15 % less CPU (bench/README.md, openapi-import, Session 9).
 *
 * A process-wide V8 setting (read each time the young generation would grow), so it is chosen
 * only by the process's owner — the command line, for a short-lived import — never by library
 * code the app also runs.
 */
import v8 from 'node:v8';

let chosen = false;

/** The young generation stays at its current size for the rest of this process. */
export function preferSteadyYoungGeneration(): void {
  if (chosen) return;
  chosen = true;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}
