/**
 * What opening a workspace loads only when it reads a file itself: the model's schemas, the YAML
 * parsers and the writers that use them (open.ts imports this lazily). A `ferry ls` whose files
 * all come from the listing cache never loads it.
 */
import { parseFolderSummary, parseRequestSummary, parseResource, type EnvironmentSummary, type LoadTestSummary, type ResourceKind, type ResourceValue, type ServerSummary, type WorkspaceSummary } from '../model/index.js';
import type { FileParsing } from './listing-cache.js';
import { outcomeOfText, readSmallFile } from './read-resource.js';
import { secretValueKeys } from './secret-values.js';

export { parseYamlData, readResource } from './read-resource.js';
export { resourceText } from './save.js';
export { parseYaml, positionOf } from './yaml-file.js';
export { parseResource, unknownFieldsWarning } from '../model/index.js';
export { LISTING_READER, WHOLE_READER } from './tree-readers.js';

/** A listing's reading of a file (read-resource.ts's, same checks and warnings), keeping its summary. */
export const LISTING_PARSING: FileParsing = {
  readText: readSmallFile,
  outcome(kind: ResourceKind, text: string, label: string) {
    if (kind === 'request') return outcomeOfText(kind, text, label, parseRequestSummary);
    if (kind === 'folder') return outcomeOfText(kind, text, label, parseFolderSummary);
    return outcomeOfText(kind, text, label, (data) => {
      const parsed = parseResource(kind, data);
      return parsed.ok ? { ok: true, value: summaryOf(kind, parsed.value) } : parsed;
    });
  },
};

/** What a listing keeps of a whole `ferry.yaml`, environment, server or load test (`Workspace<RequestSummary>`). */
export function summaryOf(kind: ResourceKind, value: ResourceValue<ResourceKind>): unknown {
  if (kind === 'workspace') {
    const { version, id, name, variables } = value as ResourceValue<'workspace'>;
    return { version, ...(id === undefined ? {} : { id }), name, secretValues: secretValueKeys(variables) } satisfies WorkspaceSummary;
  }
  if (kind === 'environment') {
    const { name, variables } = value as ResourceValue<'environment'>;
    return { name, secretValues: secretValueKeys(variables) } satisfies EnvironmentSummary;
  }
  if (kind === 'server') {
    const { name, kind: serverKind, seq, port } = value as ResourceValue<'server'>;
    return { name, kind: serverKind, seq, port } satisfies ServerSummary;
  }
  if (kind === 'loadtest') {
    const { name, seq } = value as ResourceValue<'loadtest'>;
    return { name, seq } satisfies LoadTestSummary;
  }
  throw new Error(`no listing summary of a ${kind}`);
}
