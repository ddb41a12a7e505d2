/** The history dialog's routes: this computer's sends (history.json, the app's and `ferry run`'s) and the kept answers of the app's. */
import { RESULTS_KEPT, sendResultKey } from '../../appdata/index.js';
import type { HistoryView, SendResponse } from '../shared/api.js';
import { ApiError, type Routes } from './router.js';
import type { WorkspaceState } from './workspace-state.js';

export function historyRoutes(state: WorkspaceState): Routes {
  return {
    'GET /api/history': async () => {
      const [entries, kept] = await Promise.all([state.data.readHistory(), state.data.results.keys()]);
      const views: HistoryView[] = entries.map((entry) => {
        const key = sendResultKey(entry.time, entry.path);
        return { ...entry, key, kept: kept.has(key) };
      });
      return { entries: views.reverse() };
    },

    'GET /api/history/result': async ({ query }) => {
      const answer = await state.data.results.read(query.get('key') ?? '');
      if (!answer) throw new ApiError(404, `This send's answer is not kept on this computer (the app keeps its last ${RESULTS_KEPT}; \`ferry run\` keeps none): send the request again.`);
      return answer as SendResponse;
    },
  };
}
