/** Folder settings, `requests/**\/_folder.yaml` (spec 2.9). */
import { z } from 'zod';
import { flag, number, section, text } from './declare.js';
import { authSchema, keyValues, scriptsSchema } from './common.js';
import { DEFAULT_SEQ } from './constants.js';

export const folderOpenApiSchema = section({
  spec: text().optional(),
  source: text().optional(),
  validate: flag().default(true),
});

export const folderSchema = section({
  name: text().optional(),
  seq: number().default(DEFAULT_SEQ),
  auth: authSchema('inherit'),
  headers: keyValues(),
  scripts: scriptsSchema.optional(),
  docs: text().optional(),
  openapi: folderOpenApiSchema.optional(),
});
export type FolderFile = z.output<typeof folderSchema>;
