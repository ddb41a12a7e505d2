/**
 * What every MCP client of Ferry's is made with. The SDK client checks a tool's structured result
 * against the output schema the server listed; with Ajv's default a `"pattern": "^(a+)+$"` there
 * and a result of `aaaa…b` held the thread for hours (`ferry app`'s live session, which lists
 * then calls). The bounded validator runs patterns in linear time or stops them at a limit.
 */
import type { ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { boundedSchemaValidator } from '../../support/bounded-schema-validator.js';

export function clientOptions(): ClientOptions {
  return { jsonSchemaValidator: boundedSchemaValidator() };
}
