/**
 * Update from API spec (spec 4.5) for the app's dialog, with the core `ferry update` uses:
 * the known source, a preview (the plan; nothing written), then apply. Apply plans again from
 * the same input and writes only when that plan is the one previewed: a file edited meanwhile
 * asks for a new preview rather than writing what the user did not see.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { download, ImportError, PASTED, readInput, type ImportInput } from '../../importers/index.js';
import {
  applyUpdate, knownDocumentSource, locateFolder, planSummary, planUpdate, recoverInterruptedUpdate, UpdateWriteError, type UpdateInput, type UpdatePlan,
} from '../../importers/openapi/update/index.js';
import type { UpdatePreview } from '../shared/api.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import type { WorkspaceState } from './workspace-state.js';

/** Previews waiting for Update, the newest few. */
const KEPT_PLANS = 5;

function preview(planId: string, plan: UpdatePlan, written: boolean): UpdatePreview {
  const summary = planSummary(plan, written) as Omit<UpdatePreview, 'planId' | 'createsEnvironment'>;
  return { ...summary, planId, createsEnvironment: plan.createsEnvironment };
}

/** The plan as the user saw it, without what changes from one planning to the next (nothing should). */
function fingerprint(plan: UpdatePlan): string {
  return JSON.stringify([planSummary(plan, false), plan.writes.map((w) => [w.file, w.text]), plan.deletes]);
}

export function updateRoutes(state: WorkspaceState): Routes {
  const root = () => state.workspace.root;
  const plans = new Map<string, { input: UpdateInput; fingerprint: string }>();

  const folderOf = (body: unknown) => {
    try {
      return locateFolder(state.workspace, field(body, 'folder'));
    } catch (error) {
      if (error instanceof ImportError) throw new ApiError(404, error.message);
      throw error;
    }
  };

  /** The new version: the known source, a URL, or text the page read from a file or a paste. */
  const newVersion = async (body: unknown): Promise<ImportInput> => {
    const url = optionalField(body, 'url');
    const text = optionalField(body, 'text');
    if (url !== undefined) {
      if (!/^https?:\/\//i.test(url)) throw new ApiError(400, 'Give an http:// or https:// URL.');
      return download(url, undefined, 'update');
    }
    if (text !== undefined) return { text, source: { label: optionalField(body, 'name') || PASTED } };
    const node = folderOf(body);
    const known = await knownDocumentSource(root(), node.path, node);
    if (/^https?:\/\//i.test(known)) return download(known, undefined, 'update');
    const input = await readInput(path.join(root(), ...known.split('/')), undefined, 'update');
    return { ...input, source: { ...input.source, label: known } };
  };

  const plan = async (input: UpdateInput) => {
    if ((await recoverInterruptedUpdate(root())) === 'running') throw new ApiError(409, 'Another update of this workspace is running. Wait for it to finish, then preview again.');
    return planUpdate(root(), input);
  };

  const failing = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ImportError) throw new ApiError(400, error.message);
      if (error instanceof UpdateWriteError) throw new ApiError(409, error.message);
      throw error;
    }
  };

  return {
    /** The folder's known source (pre-filled in the dialog), or why it has none. */
    'GET /api/update/source': async ({ query }) => {
      const node = folderOf({ folder: query.get('folder') ?? '' });
      try {
        return { folder: node.path, name: node.name, source: await knownDocumentSource(root(), node.path, node) };
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        if (!node.settings.openapi) throw new ApiError(400, error.message);
        return { folder: node.path, name: node.name, source: null, problem: error.message.replace(/ with --from FILE\|URL\|-\.( Nothing was updated\.)?/, ' as a file, a URL or pasted text.') };
      }
    },

    'POST /api/update/preview': async ({ body }) => failing(async () => {
      const node = folderOf(body);
      const version = await newVersion(body);
      const input: UpdateInput = { folder: node.path, text: version.text, source: version.source };
      const planned = await plan(input);
      const planId = randomUUID();
      plans.set(planId, { input, fingerprint: fingerprint(planned) });
      for (const old of [...plans.keys()].slice(0, Math.max(0, plans.size - KEPT_PLANS))) plans.delete(old);
      return preview(planId, planned, false);
    }),

    'POST /api/update/apply': async ({ body, page }) => failing(async () => {
      const planId = field(body, 'planId');
      const kept = plans.get(planId);
      if (!kept) throw new ApiError(404, 'This preview is no longer known (the app keeps the last 5, and forgets them when it restarts): preview again.');
      const planned = await plan(kept.input);
      if (fingerprint(planned) !== kept.fingerprint) {
        plans.delete(planId);
        throw new ApiError(409, 'The folder or its files changed since the preview, so the update would not be the one shown: preview again. Nothing was written.');
      }
      const writes = planned.writes.length + planned.deletes.length > 0;
      if (writes) await applyUpdate(root(), planned, undefined, state.lockFor(page));
      plans.delete(planId);
      // The files it wrote or removed, and the folders they are in (it may have made them): read
      // once, the watcher's report of them reads nothing more.
      const written = [...planned.writes.map((w) => w.file), ...planned.deletes].map((file) => path.relative(root(), file).split(path.sep).join('/'));
      await state.reloadAfterOwnWrites([...written, ...written.map((file) => path.posix.dirname(file))]);
      return preview(planId, planned, writes);
    }),
  };
}
