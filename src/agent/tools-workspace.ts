/**
 * Tools over the workspace as a whole: import (a file inside the workspace, a URL, or text such
 * as a cURL command), export a request as code, and the environments. The same importers and
 * exporter as `ferry import`, `ferry export` and the app.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listTargets } from '../codegen/index.js';
import { exportSavedRequest } from '../codegen/export-saved.js';
import { commitImport, convert, convertInput, MAX_IMPORT_BYTES, NoBaseUrlError, tooLarge, type ImportResult } from '../importers/index.js';
import { withUrlNetwork } from '../runner/url-network.js';
import { checkNewDisplayName, checkNoSymlinks, findFolder, isInside, notRegularFile, specialFileWords, walkFolders } from '../workspace/index.js';
import { answer } from './answer.js';
import { AgentError } from './errors.js';
import { addPreparedCredentials } from './mask.js';
import type { AgentState } from './state.js';
import { variableArgs } from './tools-requests.js';

/** A file the agent names for import: inside the workspace folder, no symbolic link on the way. */
async function fileInside(root: string, given: string): Promise<string> {
  // Node would refuse a NUL in its own words, naming this computer's absolute path.
  if (/[\u0000-\u001f\u007f]/.test(given)) throw new AgentError(`${JSON.stringify(given)} is not a file name: it holds a control character. Give the path of a file inside the workspace folder, relative to it.`);
  const absolute = path.resolve(root, given);
  if (!isInside(root, absolute)) {
    throw new AgentError(`${given} lies outside the workspace folder (${root}); import reads files inside it only. Copy the file into the workspace, or give its text or a URL.`);
  }
  const linked = await checkNoSymlinks(root, path.relative(root, absolute));
  if (linked) throw new AgentError(`Cannot import ${given}: ${linked}.`);
  // Said in the workspace's words, not the importer's (which names this computer's path); a pipe is never opened.
  const stat = await fs.lstat(absolute).catch(() => undefined);
  if (stat && !stat.isFile() && !stat.isDirectory()) throw new AgentError(`Cannot import ${given}: ${notRegularFile(given, specialFileWords(stat))}.`);
  return absolute;
}

export function registerWorkspaceTools(server: McpServer, state: AgentState): void {
  server.registerTool(
    'import',
    {
      title: 'Import',
      description:
        'Imports into the workspace (writes new files; nothing existing is overwritten): a Postman collection or environment, an OpenAPI 3 / Swagger 2 document, or a cURL command. Give exactly one of path (a file inside the workspace), url (http or https) or text (e.g. a cURL command).',
      inputSchema: {
        path: z.string().min(1).optional().describe('A file inside the workspace folder, relative to it.'),
        url: z.string().min(1).optional().describe('An http(s) URL to download (an OpenAPI document, a collection).'),
        text: z.string().min(1).optional().describe('The content itself: a cURL command, or a collection or document as JSON or YAML.'),
        into: z.string().optional().describe('Target folder under requests/ (default: the root).'),
        name: z.string().optional().describe('Name of the imported folder, environment or request.'),
        baseUrl: z.string().optional().describe('OpenAPI: the base URL when the document does not say where the API runs.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      answer(state, async ({ ws }) => {
        const given = [args.path, args.url, args.text].filter((v) => v !== undefined).length;
        if (given !== 1) throw new AgentError('Give exactly one of path (a file inside the workspace), url or text.');
        const nameProblem = args.name === undefined ? undefined : checkNewDisplayName(args.name);
        if (nameProblem) throw new AgentError(`name: ${nameProblem}`);
        const into = (args.into ?? '').replace(/\\/g, '/').replace(/^requests\//i, '').replace(/^\/+|\/+$/g, '');
        if (into.split('/').some((part) => part === '..' || part === '.')) throw new AgentError(`into "${args.into}" must be a folder under requests/, without . or .. parts.`);
        if (into !== '' && !findFolder(ws.tree, into)) {
          const folders = [...walkFolders(ws.tree)].map((f) => f.path);
          throw new AgentError(`No folder "${into}" under requests/ to import into. ${folders.length ? `Folders here: ${folders.slice(0, 50).join(', ')}. ` : ''}Give one of them, or leave out into to import at the root.`);
        }
        const options = { name: args.name, baseUrl: args.baseUrl, workspaceRoot: ws.root, baseDepth: into.split('/').filter(Boolean).length };
        const converted = async (): Promise<ImportResult> => {
          if (args.url !== undefined) {
            if (!/^https?:\/\//i.test(args.url)) throw new AgentError(`url must start with http:// or https://, not "${args.url}".`);
            const url = args.url;
            // Through this computer's proxy and certificate settings, as sends go.
            return withUrlNetwork((network) => convertInput(url, options, network));
          }
          if (args.path !== undefined) return convertInput(await fileInside(ws.root, args.path), options);
          // The limit of an import file holds for text given inline too.
          const bytes = Buffer.byteLength(args.text!);
          if (bytes > MAX_IMPORT_BYTES) throw new AgentError(tooLarge('The text given', bytes).message);
          return convert(args.text!, { label: 'the text given' }, options);
        };
        const result = await converted().catch((error: unknown) => {
          throw error instanceof NoBaseUrlError ? error.withWay('give it as baseUrl') : error;
        });
        // A call the client cancelled (or gave up on) writes nothing, or is undone as a failed import is.
        const summary = await commitImport({ root: ws.root, id: ws.id }, result, { into, signal: extra.signal });
        return summary;
      }),
  );

  server.registerTool(
    'export_code',
    {
      title: 'Export as code',
      description: 'A saved HTTP request as a cURL command or a short program in one of 16 languages, as Ferry would send it (inherited headers and auth, variables filled). Without lang: the languages and libraries. Secret values are shown as ***.',
      inputSchema: {
        path: z.string().min(1).optional().describe('The request path under requests/ (extension optional).'),
        lang: z.string().min(1).optional().describe('curl, httpie, wget, powershell, javascript, python, go, java, kotlin, swift, csharp, php, ruby, rust, dart, c.'),
        lib: z.string().min(1).optional().describe('Library or shell of the language; default: the usual one (see the list without lang).'),
        substitute: z.boolean().optional().describe('Fill {{variables}} (default true).'),
        ...variableArgs,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws, alsoMask }) => {
        if (args.lang === undefined) {
          return { languages: listTargets().map(({ lang, lib, language, library, default: isDefault }) => ({ lang, lib, language, library, default: isDefault })) };
        }
        if (args.path === undefined) throw new AgentError('Give path, the request to export (as list_requests shows it).');
        const { code, target, prepared } = await exportSavedRequest(ws, args.path, {
          lang: args.lang, lib: args.lib, substitute: args.substitute !== false, environment: args.environment, vars: new Map(Object.entries(args.variables ?? {})), face: 'agent',
        });
        alsoMask((mask) => addPreparedCredentials(mask, prepared));
        return { lang: target.lang, lib: target.lib, code };
      }),
  );

  server.registerTool(
    'list_environments',
    {
      title: 'List environments',
      description: 'The environments of the workspace with their variables, which one is active on this computer, and the workspace variables. Secret values are never shown: a secret variable reads *** when this computer holds its value.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      answer(state, async ({ ws }) => {
        const data = state.dataFolder(ws);
        const active = await data.activeEnvironment();
        const view = async (scope: string, variables: ReadonlyArray<{ key: string; value: string; enabled: boolean; secret: boolean }>) => {
          const stored = await data.secrets.all(scope).catch(() => ({}) as Record<string, string>);
          return variables.map((v) => ({ key: v.key, value: v.secret ? (Object.hasOwn(stored, v.key) ? '***' : '') : v.value, enabled: v.enabled, ...(v.secret ? { secret: true, stored: Object.hasOwn(stored, v.key) } : {}) }));
        };
        return {
          active: active && ws.environments.some((e) => e.id === active) ? active : null,
          environments: await Promise.all(ws.environments.map(async (e) => ({ id: e.id, name: e.value.name || e.id, file: e.file, variables: await view(e.id, e.value.variables) }))),
          workspaceVariables: await view('workspace', ws.file.variables),
        };
      }),
  );
}
