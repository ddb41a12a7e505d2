/**
 * The app's pickers (issue 26): what a request's target offers (`Session.describe`: gRPC methods,
 * MCP tools, resources and prompts), and allowing a program this computer has not allowed yet
 * when the user says so (spec 5.4: the app asks before starting it). No kind is named here.
 */
import { randomUUID } from 'node:crypto';
import { AllowedPrograms } from '../../appdata/index.js';
import { requestSchema, settingsSchema } from '../../model/index.js';
// Imported directly, not through the model's index: only the app draws forms (`ferry run` never loads it).
import { formFields } from '../../model/form-fields.js';
import { allRequestKinds, type ProgramSpec } from '../../protocols/index.js';
import { DescribeError, SelectError } from '../../runner/index.js';
import { SchemaCache } from './graphql-schema.js';
import { ApiError, field, type Routes } from './router.js';
import { requestFrom } from './routes-workspace.js';
import type { KindView } from '../shared/api.js';
import type { WorkspaceState } from './workspace-state.js';

/** Refused programs waiting for the user's answer, by token: the page never sees (or sends back) env values. */
const PENDING_KEPT = 20;

/** Every request kind as the editor draws it, from the kind table and the format's declaration: a new kind or option needs no change in the page. */
function editorKinds(): Record<string, KindView> {
  return Object.fromEntries(allRequestKinds().map((k) => [k.kind, {
    noun: k.noun,
    url: k.url,
    schemes: k.schemes,
    method: k.method,
    ...(k.methodChoices ? { methodChoices: k.methodChoices } : {}),
    ...(k.options ? { options: k.options, fields: formFields(requestSchema.shape[k.options]) } : {}),
    ...(k.sendsAuth ? { sendsAuth: k.sendsAuth } : {}),
    ...(k.sendsHeaders === false ? { sendsHeaders: false as const } : {}),
  } satisfies KindView]));
}

export function catalogRoutes(state: WorkspaceState): Routes {
  const pending = new Map<string, ProgramSpec>();
  const schemas = new SchemaCache();
  return {
    /** The kinds whose target has a list to pick from, each with its option section (where `apply.options` go). */
    'GET /api/describe/kinds': async () => Object.fromEntries(allRequestKinds().filter((k) => k.describe).map((k) => [k.kind, { options: k.options ?? null }])),
    /** What the request editor draws for each kind: its kind table rules (method box, URL schemes) and its option section's fields. */
    'GET /api/kinds': async () => editorKinds(),
    /** The settings' own sections (spec 2.7: `stream`, `repeat`) as the Settings tab draws them, whatever the kind. */
    'GET /api/kinds/settings': async () => ({ stream: formFields(settingsSchema.shape.stream), repeat: formFields(settingsSchema.shape.repeat) }),
    /** The GraphQL schema of the editor's request URL (introspection), kept per URL; `refresh: true` asks again. */
    'POST /api/graphql/schema': async ({ body, signal }) => {
      const request = requestFrom(body);
      const path = field(body, 'path');
      const refresh = (body as { refresh?: unknown }).refresh === true;
      return state.withSession((session) => schemas.get(session, request, path, refresh, signal)).catch((error: unknown) => {
        if (error instanceof SelectError) throw new ApiError(400, error.message);
        throw error;
      });
    },
    /**
     * Lists what the target of `request` (what the editor holds, placed at `path`) offers. A
     * program not allowed yet answers 409 with `program` (its command, folder and env names)
     * and a `programToken` for POST /api/programs/allow.
     */
    'POST /api/describe': async ({ body, signal }) => {
      const requestPath = field(body, 'path');
      const target = (body as { request?: unknown }).request === undefined ? requestPath : { request: requestFrom(body), path: requestPath };
      try {
        return await state.withSession((session) => session.describe(target, signal));
      } catch (error) {
        if (error instanceof DescribeError && error.program) {
          const token = randomUUID();
          pending.set(token, error.program);
          if (pending.size > PENDING_KEPT) pending.delete(pending.keys().next().value!);
          const { command, cwd, env } = error.program;
          throw new ApiError(409, error.message, { programToken: token, program: { command, cwd, envNames: Object.keys(env) } });
        }
        if (error instanceof DescribeError || error instanceof SelectError) throw new ApiError(400, error.message);
        throw error;
      }
    },
    /** The user allowed a refused program (by its token): it is added to this computer's allow-list, as `ferry programs allow` does. */
    'POST /api/programs/allow': async ({ body }) => {
      const token = field(body, 'programToken');
      const program = pending.get(token);
      if (!program) throw new ApiError(404, 'That program is no longer waiting to be allowed; list again to be asked again.');
      pending.delete(token);
      const workspace = state.workspace;
      const entry = await new AllowedPrograms(workspace.id, workspace.root).allow(program);
      return { allowed: { id: entry.id, command: entry.command, cwd: entry.cwd } };
    },
  };
}
