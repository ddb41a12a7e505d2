/**
 * An MCP client error as one line for a message. The SDK checks each answer against MCP's schema
 * with zod, whose error message is a JSON list of the problems over many lines (its first line is
 * `[`): such an error is said as the fields and what is wrong with them. An answer Ferry gave in
 * the server's stead (answer-watch.ts) is said in its own words.
 */
import { unansweredText } from './answer-watch.js';

export function errorLine(error: unknown): string {
  const ours = unansweredText(error);
  if (ours) return ours;
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const said = issues.slice(0, 3).map((issue: { path?: unknown[]; message?: unknown }) => `${issue.path?.length ? issue.path.join('.') : 'the result'}: ${String(issue.message ?? 'not valid')}`);
    return `the server's answer is not an MCP result: ${said.join('; ')}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}`;
  }
  return String((error as Error)?.message ?? error).split('\n')[0]!.replace(/\.$/, '');
}
