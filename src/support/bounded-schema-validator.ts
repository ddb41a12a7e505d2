/**
 * The MCP SDK's JSON Schema validator (Ajv, with the SDK's own options and formats) whose
 * `pattern` and `patternProperties` run through bounded-regex.ts: a schema written by someone
 * else (an MCP tool in a workspace, a tool list from a server) cannot stall the thread with
 * `"pattern": "^(a+)+$"`. Ajv's default compiles them with `new RegExp(pattern, 'u')`, which a
 * long argument of `aaaa…b` held for hours.
 *
 * Ajv is the SDK's dependency, not Ferry's: it is loaded as the SDK loads it (from the SDK's
 * folder), and given through the SDK's documented constructor argument.
 */
import { createRequire } from 'node:module';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { boundedRegex } from './bounded-regex.js';

type AjvInstance = ConstructorParameters<typeof AjvJsonSchemaValidator>[0];

/** Ajv's `code.regExp`: a pattern and its flags to an object with `test`; `code` names it in standalone code (unused here). */
const regExp = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = boundedRegex(pattern, flags);
    // Ajv keeps one compiled pattern per `toString()`.
    return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'boundedRegex' },
);

type AjvClass = new (options: Record<string, unknown>) => NonNullable<AjvInstance>;
let ajvModules: { Ajv: AjvClass; addFormats: (ajv: NonNullable<AjvInstance>) => void } | undefined;

/**
 * A validator of its own, as `new AjvJsonSchemaValidator()` makes one: Ajv keeps what it compiled
 * by `$id`, so users that hold different schemas (a server's tools, a client's peer) each make one.
 */
export function boundedSchemaValidator(): AjvJsonSchemaValidator {
  if (!ajvModules) {
    const fromSdk = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/validation/ajv'));
    ajvModules = {
      Ajv: (fromSdk('ajv') as { default: AjvClass }).default,
      addFormats: (fromSdk('ajv-formats') as { default: (ajv: NonNullable<AjvInstance>) => void }).default,
    };
  }
  // The SDK's default options (validation/ajv-provider.js), plus the pattern engine.
  const ajv = new ajvModules.Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp } });
  ajvModules.addFormats(ajv);
  return new AjvJsonSchemaValidator(ajv);
}
