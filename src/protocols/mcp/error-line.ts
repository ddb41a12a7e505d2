/**
 * An MCP client error as one line for a message. The SDK checks each answer against MCP's schema
 * with zod, whose error message is a JSON list of the problems over many lines (its first line is
 * `[`): such an error is said as the fields and what is wrong with them. An answer Ferry gave in
 * the server's stead (answer-watch.ts) is said in its own words, and a POST answered with an HTTP
 * error by its status and first words.
 */
import { firstWords, unansweredText } from './answer-watch.js';

/** How the SDK starts the message of a POST answered with an HTTP error, the answer's whole body after it. */
const REFUSED_POST = 'Streamable HTTP error: Error POSTing to endpoint: ';

export function errorLine(error: unknown): string {
  const ours = unansweredText(error);
  if (ours) return ours;
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const said = issues.slice(0, 3).map((issue: { path?: unknown[]; message?: unknown }) => `${issue.path?.length ? issue.path.join('.') : 'the result'}: ${String(issue.message ?? 'not valid')}`);
    return `the server's answer is not an MCP result: ${said.join('; ')}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}`;
  }
  const message = String((error as Error)?.message ?? error);
  // A proxy's error page (nginx's 502 with its upstream down) came whole, over many lines with CRs:
  // said as the status and the page's first words, on one line.
  const status = (error as { code?: unknown } | undefined)?.code;
  if (message.startsWith(REFUSED_POST) && typeof status === 'number' && status >= 100) {
    const said = firstWords(message.slice(REFUSED_POST.length));
    return `its POST was answered HTTP ${status}${said ? `: ${said}` : ''}`;
  }
  return message.split('\n')[0]!.replace(/\.$/, '');
}
