/** Copy as code (spec 4.7) and imports (4.1–4.6): the core's exporters and importers, called as the CLI calls them. */
import { listTargets, TargetError } from '../../codegen/index.js';
import { commitImport, convert, countNodes, download, ImportError, mergeVariables, NoBaseUrlError, PASTED, type ImportResult, type ImportedNode } from '../../importers/index.js';
import { PrepareError } from '../../request/index.js';
import { exportSavedRequest } from '../../codegen/export-saved.js';
import { RunError, SelectError, withUrlNetwork } from '../../runner/index.js';
import { parseResource, WORKSPACE_FILE } from '../../model/index.js';
import { ENVIRONMENTS_DIR, findFolder, newRequestPath, SERVERS_DIR, SPECS_DIR } from '../../workspace/index.js';
import type { CodeTarget, ImportDone, ImportPreview, UnsavedImport } from '../shared/api.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import { requestFrom } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

/** The import's input: pasted text (a cURL command, a collection, a document) or an http(s) URL to download. */
async function converted(body: unknown, workspaceRoot: string): Promise<ImportResult> {
  const url = optionalField(body, 'url');
  const name = optionalField(body, 'name') || undefined;
  const baseUrl = optionalField(body, 'baseUrl') || undefined;
  const into = optionalField(body, 'into') ?? '';
  const options = { name, baseUrl, workspaceRoot, baseDepth: into.split('/').filter(Boolean).length };
  try {
    if (url) {
      if (!/^https?:\/\//i.test(url)) throw new ApiError(400, 'Give an http:// or https:// URL.');
      // Through this computer's proxy and certificate settings, as the app's sends.
      const input = await withUrlNetwork((network) => download(url, network));
      return await convert(input.text, input.source, options);
    }
    return await convert(field(body, 'text'), { label: optionalField(body, 'fileName') || PASTED }, options);
  } catch (error) {
    if (error instanceof NoBaseUrlError) throw new ApiError(400, error.withWay('type it in Base URL').message);
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** The names of what will be created, outermost first (`Petstore/`, `Petstore/List pets`). */
function outline(nodes: ImportedNode[], prefix = '', out: string[] = []): string[] {
  for (const node of nodes) {
    if (out.length >= 200) break;
    if (node.type === 'folder') {
      out.push(`${prefix}${node.name}/`);
      outline(node.children, `${prefix}${node.name}/`, out);
    } else out.push(`${prefix}${String(node.request.name)}`);
  }
  return out;
}

export function toolRoutes(state: WorkspaceState): Routes {
  return {
    'GET /api/export/targets': async () => listTargets().map(({ id, lang, lib, language, library, platform, default: isDefault }): CodeTarget => ({ id, lang, lib, language, library, platform, default: isDefault })),

    /**
     * The saved request as code (the page saves its edits first), with the active environment's
     * values; `request`: one not written yet (an unsaved editor), exported as if saved at `path`.
     */
    'POST /api/export': async ({ body }) => {
      try {
        const substitute = (body as { substitute?: unknown }).substitute !== false;
        const draft = (body as { request?: unknown }).request === undefined ? undefined : requestFrom(body);
        const { code, secretsInCode } = await exportSavedRequest(state.workspace, field(body, 'path'), { lang: field(body, 'lang'), lib: optionalField(body, 'lib'), substitute, face: 'app', ...(draft ? { draft } : {}) });
        // What the code holds in plain text, for the page to say so (as `ferry export` warns on stderr).
        return { code, secretsInCode };
      } catch (error) {
        if (error instanceof RunError || error instanceof SelectError || error instanceof PrepareError || error instanceof TargetError) throw new ApiError(400, error.message);
        throw error;
      }
    },

    /** What an import would create; nothing is written. */
    'POST /api/import/preview': async ({ body }) => {
      const result = await converted(body, state.workspace.root);
      const { requests, folders } = countNodes(result.items);
      // The variables the import will add: one the workspace has keeps its value (said in a note);
      // counting those too, a second import of a collection promised variables it did not create.
      const variables = mergeVariables(result.variables, state.workspace.file.variables.map((v) => v.key));
      const preview: ImportPreview = {
        kind: result.kind, name: result.name, requests, folders,
        environments: result.environments.length, variables: variables.added.length,
        items: [...outline(result.items), ...result.environments.map((e) => `environment ${e.name}`)],
        notes: [...result.notes, ...(variables.note ? [variables.note] : [])],
      };
      return preview;
    },

    /**
     * cURL's "Open as new request" (spec 4.1): the pasted command as a request that is not written
     * yet, with the path it would have in the chosen folder; the page opens it as an unsaved tab
     * (Send works before saving) and Save writes it through `POST /api/request`.
     */
    'POST /api/import/curl': async ({ body }) => {
      const into = optionalField(body, 'into') ?? '';
      if (into && !findFolder(state.workspace.tree, into)) throw new ApiError(400, `No folder "${into}" under requests/; choose a folder that exists.`);
      const result = await converted(body, state.workspace.root);
      const node = result.items[0];
      if (result.kind !== 'curl' || node?.type !== 'request') throw new ApiError(400, `This is ${result.kind === 'curl' ? 'not a request' : `a ${result.kind} import`}, not a cURL command; use Import for it.`);
      const parsed = parseResource('request', node.request);
      if (!parsed.ok) throw new ApiError(400, `The cURL command gives no valid request: ${parsed.problems[0]!.message}`);
      // The path Save will give it: a second import of one command is not the first one's file.
      const unsaved: UnsavedImport = { request: parsed.value, folder: into, path: await newRequestPath(state.workspace.root, into, parsed.value.name), notes: result.notes };
      return unsaved;
    },

    'POST /api/import': async ({ body, page }) => {
      const result = await converted(body, state.workspace.root);
      try {
        // The write and its read as one of the app's own (not the download before it: server.ts OWN_WRITES).
        const summary = await state.ownWrite(async () => {
          const written = await commitImport({ root: state.workspace.root, id: state.workspace.id }, result, { into: optionalField(body, 'into') ?? '', lock: state.lockFor(page) });
          // What it wrote (each folder or file moved into place whole), the workspace file (variables)
          // and the folders it may have made: read once, the watcher's report of them reads nothing more.
          await state.reloadAfterOwnWrites([...(written.written ?? []), WORKSPACE_FILE, SPECS_DIR, ENVIRONMENTS_DIR, SERVERS_DIR]);
          return written;
        });
        const done: ImportDone = { ...summary, written: summary.written ?? [] };
        return done;
      } catch (error) {
        if (error instanceof ImportError) throw new ApiError(400, error.message);
        throw error;
      }
    },
  };
}
