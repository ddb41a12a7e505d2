/** An environment, `environments/<id>.yaml` (spec 2.10). */
import { z } from 'zod';
import { list, section, text } from './declare.js';
import { variableSchema } from './common.js';

export const environmentSchema = section({
  name: text().default(''),
  variables: list(variableSchema).default([]),
});
export type EnvironmentFile = z.output<typeof environmentSchema>;
