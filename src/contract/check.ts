/**
 * The `Matches the API spec` test for one response (spec 7.1): decides whether the check
 * applies, then applies the status rule and the body rule.
 */
import type { ContractDocuments, LoadedDocument } from './documents.js';
import { contractTestName, messages } from './messages.js';
import { bodySchemaFor, documentedStatuses, findResponseKey, headerValue } from './response-selection.js';
import { Problems } from './schema-check.js';
import { linkedDocumentPath } from './link.js';
import type { ContractFolder, ContractRequest, ContractResponse, ContractTestResult } from './types.js';

export { linkedDocumentPath };

export interface ContractCheckInput {
  /** The run's document cache (one per run); it knows the workspace folder. */
  documents: ContractDocuments;
  request: ContractRequest;
  /** The request's folders, outermost first. The innermost folder that links a document wins. */
  folderChain: ReadonlyArray<ContractFolder>;
  response: ContractResponse;
  /** Told why the check was left out (for verbose logs); the test itself stays silent. */
  onSkip?: (reason: string) => void;
}

/** The contract test for a response, or null when the check is left out (spec 7.1, five cases). */
export async function contractTestFor(input: ContractCheckInput): Promise<ContractTestResult | null> {
  const skip = (reason: string): null => {
    input.onSkip?.(reason);
    return null;
  };
  const link = linkedDocumentPath(input.request, input.folderChain);
  if ('skip' in link) return skip(link.skip);
  const load = await input.documents.load(link.spec);
  if (!load.ok) return skip(load.reason);
  return checkResponse(load.loaded, link.operation, input.response, skip);
}

/** The check against an already loaded document (skip cases 5 and the rules). */
export function checkResponse(
  loaded: LoadedDocument,
  operationText: string,
  response: ContractResponse,
  skip: (reason: string) => null = () => null,
): ContractTestResult | null {
  const { document, checker } = loaded;
  const found = document.findOperation(operationText);
  if (found === undefined) return skip(`the API document has no operation ${operationText.trim()}`);
  const statuses = documentedStatuses(found.responses);
  if (statuses.length === 0) return skip(`the API document documents no responses for ${operationText.trim()}`);

  const name = contractTestName(found.method, found.path, response.status);
  const key = findResponseKey(found.responses, response.status);
  if (key === undefined) return { name, passed: false, message: messages.statusNotDocumented(response.status, statuses) };

  // A HEAD answer never has a body, nor do 1xx, 204, 205 and 304 (RFC 9110), whatever the
  // document says (a `2XX` or `default` with a body also covers a 204): check the status only.
  if (found.method === 'HEAD' || hasNoBody(response.status)) return { name, passed: true };
  const schema = bodySchemaFor(document, found.responses[key], headerValue(response.headers, 'content-type'));
  if (schema === undefined) return { name, passed: true };

  const text = decodeBody(response.body);
  if (text.trim() === '') return { name, passed: false, message: messages.bodyEmpty() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 ends its messages with "is not valid JSON", which the message says already.
    const detail = (error as Error).message.replace(/ is not valid JSON$/, '');
    return { name, passed: false, message: messages.bodyNotJson(detail) };
  }
  const problems = new Problems();
  checker.check(value, schema, problems);
  if (problems.count === 0) return { name, passed: true };
  return { name, passed: false, message: problems.toMessage() };
}

/** Statuses whose answers carry no body (RFC 9110 15.2, 15.3.5, 15.3.6, 15.4.5). */
function hasNoBody(status: number): boolean {
  return (status >= 100 && status < 200) || status === 204 || status === 205 || status === 304;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: false });

function decodeBody(body: Uint8Array): string {
  return utf8.decode(body);
}
