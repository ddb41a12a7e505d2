/**
 * Answers the mock writes itself in RFC 9457 form (`application/problem+json`): a request that
 * does not match its operation (422, listing every problem, as Prism does) and a `Prefer` asking
 * for a response the document does not have (400).
 */
import type { HeaderValues } from '../../http-types.js';

export interface ProblemAnswer {
  status: number;
  headers: HeaderValues;
  body: Buffer;
}

export function problemAnswer(status: number, title: string, detail: string, extra: Record<string, unknown>): ProblemAnswer {
  const body = Buffer.from(`${JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }, null, 2)}\n`, 'utf8');
  return { status, headers: { 'Content-Type': 'application/problem+json', 'Content-Length': String(body.length) }, body };
}

/** 422: every problem of the request, one string each (the contract check's wording). */
export function invalidRequestAnswer(operation: string, problems: readonly string[]): ProblemAnswer {
  const count = problems.length;
  return problemAnswer(422, 'Unprocessable Content', `The request does not match the API spec for ${operation}: ${count === 1 ? '1 problem' : `${count} problems`}.`, {
    operation,
    problems,
  });
}
