/**
 * Tool results are read by a language model with a bounded context: every result is kept short,
 * and what is cut says so and how much there was (issue 23: "a bounded body").
 */
export const LIMITS = {
  /** Response body characters shown by default, and the most an agent may ask for. */
  bodyChars: 20_000,
  maxBodyChars: 200_000,
  /** Stream messages shown per send, and characters of each. */
  messages: 50,
  messageChars: 2_000,
  /** Tests shown per request (each name and message cut at `messageChars`). */
  tests: 200,
  /** Requests listed at most; traffic records returned at most. */
  listedRequests: 500,
  trafficRecords: 200,
  /** Characters of a run's JSON report returned by the tool (the resource holds all of it). */
  reportChars: 100_000,
  /** Workspace files served as resources, and the size of one. */
  resourceFiles: 2_000,
  resourceBytes: 1024 * 1024,
} as const;

/** `text` cut at `max` characters (not inside a surrogate pair), with a note saying how much there was. */
export function cutText(text: string, max: number, what = 'characters'): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: `${text.slice(0, end)}\n… [cut at ${end} of ${text.length} ${what}]`, cut: true };
}
