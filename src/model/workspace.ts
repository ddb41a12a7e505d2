/** The workspace file, `ferry.yaml` (spec 2.2). */
import { z } from 'zod';
import { list, section, text } from './declare.js';
import { authSchema, keyValues, scriptsSchema, variableSchema } from './common.js';

export { WORKSPACE_FILE, FORMAT_VERSION } from './constants.js';
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const workspaceSchema = section({
  version: z.number({ error: 'expected the format version number, 1' }),
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
