/** The workspace file, `ferry.yaml` (spec 2.2). */
import { z } from 'zod';
import { describe, list, section, text } from './declare.js';
import { FORMAT_VERSION, quotedVersionNumber } from './constants.js';
import { authSchema, keyValues, scriptsSchema, variableSchema } from './common.js';

export { WORKSPACE_FILE, FORMAT_VERSION } from './constants.js';
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const workspaceSchema = section({
  // Missing: read as this version (open.ts says so and sets it, so a save writes it); never the fields dropped.
  version: z.number({ error: (issue) => versionProblem(issue.input) }).optional(),
  id: text()
    .refine((id) => WORKSPACE_ID_PATTERN.test(id), { error: 'must be 1 to 64 letters, digits, - or _' })
    .optional(),
  name: text().default(''),
  variables: list(variableSchema).default([]),
  auth: authSchema('none'),
  headers: keyValues(),
  scripts: scriptsSchema.optional(),
  docs: text().optional(),
});
export type WorkspaceFile = z.output<typeof workspaceSchema>;

/** What is wrong with a `version` that is not a number: written in quotes (`"1"`), it says to drop them. */
function versionProblem(input: unknown): string {
  if (quotedVersionNumber(input) !== undefined) {
    return `expected the format version number, ${FORMAT_VERSION}, got the text "${input}": write it without quotes (version: ${String(input).trim()})`;
  }
  return `expected the format version number, ${FORMAT_VERSION}, got ${describe(input)}`;
}
