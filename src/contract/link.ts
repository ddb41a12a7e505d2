/**
 * Whether a request is checked against an API document at all (spec 7.1, skip cases 1-3), read
 * from the request and its folders alone: kept apart from the check, so a run of requests that
 * link no document never loads the document reader and the schema checker.
 */
import type { ContractFolder, ContractRequest } from './types.js';

/** Where the request's document link comes from, or why there is none (skip cases 1-3). */
export function linkedDocumentPath(request: ContractRequest, folderChain: ReadonlyArray<ContractFolder>): { spec: string; operation: string } | { skip: string } {
  if ((request.kind ?? 'http') !== 'http') return { skip: `the request is a ${request.kind} request, not HTTP` };
  const operation = request.openapi?.operation;
  if (typeof operation !== 'string' || operation.trim() === '') return { skip: 'the request names no OpenAPI operation' };
  if (request.openapi?.removed === true) return { skip: 'the request is no longer in the API spec' };
  for (let index = folderChain.length - 1; index >= 0; index--) {
    const link = folderChain[index]?.openapi;
    if (typeof link?.spec !== 'string' || link.spec === '') continue;
    if (link.validate === false) return { skip: 'checking responses is switched off for the folder (validate: false)' };
    return { spec: link.spec, operation };
  }
  return { skip: 'no folder above the request links an API document' };
}
