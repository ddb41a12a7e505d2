/**
 * The MCP server's tools, resources and prompts (spec 2.11 `mcp`), compiled once per load:
 * schemas are parsed and compiled (a bad one is a load error naming the tool; their patterns cannot
 * stall the server: support/bounded-schema-validator.ts), results, texts and
 * messages are templates, resource URIs with `{part}`s become matchers.
 */
import type { ServerFile } from '../../../model/index.js';
import { boundedRegex, RegexTimeLimitError } from '../../../support/bounded-regex.js';
import { boundedSchemaValidator } from '../../../support/bounded-schema-validator.js';
import { compile, type Template } from '../../../template/index.js';
import { ServerError } from '../../errors.js';
import { checkWait } from '../wait.js';

type Section = NonNullable<ServerFile['mcp']>;

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** The arguments' problem, or undefined when they fit the input schema. */
  check(args: unknown): string | undefined;
  result: Template;
  isError: boolean;
  delayMs: number;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  text: Template;
  /** For a URI with `{part}`s: the parts of a URI it matches, else undefined. */
  match?: (uri: string) => Record<string, string> | undefined;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  messages: { role: 'user' | 'assistant'; text: Template }[];
}

export interface Catalog {
  tools: Map<string, Tool>;
  resources: Resource[];
  prompts: Map<string, Prompt>;
}

/** Longest URI a resource template is matched against. */
const MAX_URI_CHARS = 2048;
/** One validator for the servers' tools, made at the first schema. */
let validator: ReturnType<typeof boundedSchemaValidator> | undefined;

export function compileCatalog(section: Section, file: string): Catalog {
  const tools = new Map<string, Tool>();
  section.tools.forEach((t, i) => {
    if (!t.enabled) return;
    const where = `${file}: mcp.tools[${i}]${t.name ? ` (${t.name})` : ''}`;
    if (t.name.trim() === '') throw new ServerError(`${where}: name is empty; every tool needs a name.`);
    sameName(section.tools, i, `${where}: tools`, 'tool');
    checkWait(t.delayMs, `mcp.tools[${i}].delayMs`, file);
    const inputSchema = schema(t.inputSchema, `${where}: inputSchema`) ?? { type: 'object' };
    const outputSchema = schema(t.outputSchema, `${where}: outputSchema`);
    let validate;
    try {
      // Its patterns run in linear time, or stop at a time limit (support/bounded-regex.ts).
      validate = (validator ??= boundedSchemaValidator()).getValidator(inputSchema);
    } catch (error) {
      throw new ServerError(`${where}: inputSchema is not a JSON Schema Ferry can check arguments with (${(error as Error).message}).`);
    }
    tools.set(t.name, {
      name: t.name, title: t.title, description: t.description, inputSchema, outputSchema,
      check: (args) => {
        let outcome;
        try {
          outcome = validate(args ?? {});
        } catch (error) {
          if (error instanceof RegexTimeLimitError) return `${where}: a pattern of the inputSchema could not be checked: ${error.message}.`;
          throw error;
        }
        return outcome.valid ? undefined : outcome.errorMessage;
      },
      result: compile(t.result, 'mcp.result'), isError: t.isError, delayMs: t.delayMs,
    });
  });
  const resources: Resource[] = section.resources.flatMap((r, i) => {
    if (!r.enabled) return [];
    const where = `${file}: mcp.resources[${i}]`;
    if (r.uri.trim() === '') throw new ServerError(`${where}: uri is empty; give one such as file:///notes.txt or notes://{id}.`);
    return [{ uri: r.uri, name: r.name || r.uri, title: r.title, description: r.description, mimeType: r.mimeType, text: compile(r.text, 'mcp.resource'), match: r.uri.includes('{') ? uriMatcher(r.uri, where) : undefined }];
  });
  const prompts = new Map<string, Prompt>();
  section.prompts.forEach((p, i) => {
    if (!p.enabled) return;
    if (p.name.trim() === '') throw new ServerError(`${file}: mcp.prompts[${i}]: name is empty; every prompt needs a name.`);
    sameName(section.prompts, i, `${file}: mcp.prompts[${i}] (${p.name}): prompts`, 'prompt');
    prompts.set(p.name, {
      name: p.name, title: p.title, description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
      messages: p.messages.map((m) => ({ role: m.role, text: compile(m.text, 'mcp.prompt') })),
    });
  });
  return { tools, resources, prompts };
}

/**
 * Refuses a second enabled entry of one name: clients call tools and prompts by name, so the
 * first was listed and the last answered, and neither was the one the file seemed to say.
 */
function sameName(entries: readonly { name: string; enabled: boolean }[], i: number, where: string, what: string): void {
  const first = entries.findIndex((e) => e.enabled && e.name === entries[i]!.name);
  if (first < i) throw new ServerError(`${where}[${first}] has this name too; give each ${what} a name of its own (or set enabled: false on one).`);
}

function schema(text: string | undefined, where: string): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ServerError(`${where} is not JSON (${(error as Error).message}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { type?: unknown }).type !== 'object') {
    throw new ServerError(`${where} must be a JSON Schema object with "type": "object" (MCP tool arguments and results are objects).`);
  }
  return value as Record<string, unknown>;
}

/** `notes://{folder}/{id}` → a matcher giving `{folder, id}`; a part is one or more characters other than `/`. */
function uriMatcher(uri: string, where: string): (candidate: string) => Record<string, string> | undefined {
  const names: string[] = [];
  let source = '^';
  let at = 0;
  for (const m of uri.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    // One name, one value: `{{params.x}}` could show only one of two, and matching only equal
    // values would need a backreference, which the linear-time engine has not.
    if (names.includes(m[1]!)) throw new ServerError(`${where}: uri ${JSON.stringify(uri)} has the part {${m[1]}} twice; give each part a name of its own, such as {${m[1]}} and {${m[1]}2}.`);
    source += escape(uri.slice(at, m.index)) + '([^/]+)';
    names.push(m[1]!);
    at = m.index + m[0].length;
  }
  source += `${escape(uri.slice(at))}$`;
  if (uri.slice(at).includes('{') || names.length === 0) throw new ServerError(`${where}: uri ${JSON.stringify(uri)} has a { that is not a {part} (letters, digits and _).`);
  // Linear time: parts side by side (`{a}{b}{c}`) would have V8 try every split of a long URI.
  const regex = boundedRegex(source);
  return (candidate) => {
    if (candidate.length > MAX_URI_CHARS) return undefined;
    const m = regex.exec(candidate);
    if (m === null) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponentSafe(m[i + 1]!)]));
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
