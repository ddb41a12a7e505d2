/** Reading and writing the workspace folder. */
export * from './types.js';
export * from './open.js';
export type { ListingCacheOptions } from './listing-cache.js';
export * from './tree.js';
export * from './names.js';
export * from './files.js';
export * from './save.js';
export * from './requests.js';
export { readResource, parseYamlData } from './read-resource.js';
export { formatWarning } from './warning-text.js';
export { isSubfolderWarning } from './unread-entries.js';
export { parseYaml, renderYaml, positionOf, MAX_ALIAS_COUNT } from './yaml-file.js';
export { editYaml } from './yaml-edit.js';
export { sectionSource, withSectionSource } from './yaml-section.js';
export * from './entries.js';
export { nearestPath, normalizeSelectPath, selectRequests, SelectError, unsavedItem, warningsOfRun, type RunItem } from './select.js';
export * from './order.js';
export { applyMove, MoveError, planMove, type MovePlan } from './move-item.js';
