/** Update from API spec (spec 4.5): plan (the preview; nothing written), then apply. */
export { locateFolder, planUpdate, type UpdateInput } from './plan.js';
export { applyUpdate, UpdateWriteError } from './apply.js';
export { knownDocumentSource } from './known-source.js';
export { JOURNAL_FILE, recoverInterruptedUpdate, type Recovery } from './journal.js';
export { formatPreview, planSummary, type PreviewStyle } from './preview.js';
export type { UpdatePlan, RequestChange, RequestRef } from './types.js';
