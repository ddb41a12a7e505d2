/**
 * The page's look on this computer (docs/app.md, "Layout"): the sidebar's width, the theme, and
 * the split between the request editor and the answer (its share and layout),
 * kept in the data folder (`app-view.json`) for every workspace and every start of `ferry app`,
 * never in a workspace file. The page's own storage cannot keep them: it is per origin, and the
 * app takes a free port, another origin, each time it starts.
 */
import path from 'node:path';
import { dataDir, JsonStore } from '../../appdata/index.js';
import { EDITOR_SHARE, SIDEBAR_WIDTH, SPLIT_LAYOUTS, type AppView } from '../shared/api.js';
import { ApiError, type Routes } from './router.js';

const THEMES: ReadonlyArray<AppView['theme']> = ['light', 'dark'];

/** Why `value` is not a good `key`, or undefined when it is. */
function refusal(key: string, value: unknown): string | undefined {
  if (key === 'sidebarWidth') {
    const ok = typeof value === 'number' && Number.isInteger(value) && value >= SIDEBAR_WIDTH.min && value <= SIDEBAR_WIDTH.max;
    return ok ? undefined : `sidebarWidth must be a whole number of pixels from ${SIDEBAR_WIDTH.min} to ${SIDEBAR_WIDTH.max}, not ${JSON.stringify(value)}.`;
  }
  if (key === 'editorShare') {
    const ok = typeof value === 'number' && Number.isInteger(value) && value >= EDITOR_SHARE.min && value <= EDITOR_SHARE.max;
    return ok ? undefined : `editorShare must be a whole percentage from ${EDITOR_SHARE.min} to ${EDITOR_SHARE.max}, not ${JSON.stringify(value)}.`;
  }
  if (key === 'theme') return THEMES.includes(value as AppView['theme']) ? undefined : `theme must be light or dark, not ${JSON.stringify(value)}.`;
  if (key === 'splitLayout') return SPLIT_LAYOUTS.includes(value as never) ? undefined : `splitLayout must be ${SPLIT_LAYOUTS.join(' or ')}, not ${JSON.stringify(value)}.`;
  return `"${key.slice(0, 40)}" is not a setting of the app's look (sidebarWidth, theme, editorShare, splitLayout).`;
}

/** The store's values that are still good (a file edited by hand keeps its good values only). */
function goodValues(stored: Record<string, unknown>): AppView {
  return Object.fromEntries(Object.entries(stored).filter(([key, value]) => refusal(key, value) === undefined)) as AppView;
}

export function viewRoutes(): Routes {
  const store = new JsonStore<Record<string, unknown>>(path.join(dataDir(), 'app-view.json'), () => ({}), "the app's layout (panel sizes and the like) is back to its defaults");
  return {
    'GET /api/view': async () => goodValues(await store.read()),

    /** Sets the values given; the others stay. */
    'PUT /api/view': async ({ body }) => {
      const given = body as Record<string, unknown>;
      for (const [key, value] of Object.entries(given)) {
        const why = refusal(key, value);
        if (why) throw new ApiError(400, why);
      }
      return store.update((stored) => {
        Object.assign(stored, given);
        return goodValues(stored);
      });
    },
  };
}
