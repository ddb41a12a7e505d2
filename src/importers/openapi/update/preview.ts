/** The preview of an update (spec 4.5): what `--dry-run` prints, and what `ferry update` prints after writing. */
import type { UpdatePlan } from './types.js';

export interface PreviewStyle {
  bold(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  dim(text: string): string;
}

const plain: PreviewStyle = { bold: (t) => t, green: (t) => t, yellow: (t) => t, red: (t) => t, dim: (t) => t };

/**
 * The notes this version brings: the old document's own were given by the import (or an earlier
 * update) already, so they are not repeated at every update. Without the old document all are.
 */
export function newNotes(notes: readonly string[], oldNotes: readonly string[] | undefined): string[] {
  if (oldNotes === undefined) return [...notes];
  const known = new Set(oldNotes);
  return notes.filter((note) => !known.has(note));
}

export function formatPreview(plan: UpdatePlan, style: PreviewStyle = plain): string {
  const lines = previewHead(`Update "${plan.folderName}" from ${plan.from}`, plan.warnings, style);
  if (plan.upToDate) {
    lines.push('The folder already matches this version.');
    return lines.join('\n');
  }
  if (plan.added.length > 0) {
    previewSection(lines, 'Added', plan.added.length, style);
    for (const r of plan.added) lines.push(previewItem(style.green('+'), r, style));
  }
  if (plan.changed.length > 0 || plan.folderChange) {
    previewSection(lines, 'Changed', plan.changed.length + (plan.folderChange ? 1 : 0), style);
    if (plan.folderChange) lines.push(...changeLines(`  ~ folder settings of "${plan.folderName}"`, plan.folderChange, style));
    for (const c of plan.changed) lines.push(...changeLines(previewItem('~', c, style), c, style));
  }
  if (plan.removed.length > 0) {
    previewSection(lines, 'No longer in the spec (kept, marked)', plan.removed.length, style);
    for (const r of plan.removed) lines.push(previewItem(style.red('-'), r, style));
  }
  if (plan.newVariables.length > 0) {
    previewSection(lines, `New environment variables in "${plan.environment}"${plan.createsEnvironment ? ' (new environment)' : ''}`, plan.newVariables.length, style);
    for (const key of plan.newVariables) {
      const from = plan.carriedVariables[key];
      lines.push(`  ${style.green('+')} ${key}${from === undefined ? '' : style.dim(` (your value of ${from})`)}`);
    }
  }
  if (plan.updatedVariables.length > 0) {
    previewSection(lines, `Environment variables updated in "${plan.environment}"`, plan.updatedVariables.length, style);
    for (const key of plan.updatedVariables) lines.push(`  ~ ${key}`);
  }
  if (plan.added.length + plan.changed.length + plan.removed.length === 0 && !plan.folderChange) {
    lines.push('', 'No request changes.');
  }
  if (plan.documentChanged) lines.push('', 'The kept document is replaced by this version.');
  if (plan.source !== undefined) lines.push(`${plan.documentChanged ? '' : '\n'}The recorded source becomes ${plan.source} (where \`ferry update\` without --from reads the next version).`);
  previewNotes(lines, plan.notes, style);
  return lines.join('\n');
}

/*
 * The pieces both previews are made of, the folder's above and a generated server's
 * (formatServerPreview): the same words, sections, order and columns.
 */

/** One operation of a section: `  + GET /pets  List pets  Petstore/List pets.yaml` (the place dim, when there is one). */
export interface PreviewItem {
  operation: string;
  name: string;
  path?: string;
}

/** The first line (what is updated, from where), then the warnings. */
export function previewHead(title: string, warnings: readonly string[], style: PreviewStyle = plain): string[] {
  return [style.bold(title), ...warnings.map((warning) => style.yellow(`Warning: ${warning}`))];
}

/** A blank line, then the section's title with its count. */
export function previewSection(lines: string[], title: string, count: number, style: PreviewStyle = plain): void {
  lines.push('', style.bold(`${title} (${count})`));
}

export function previewItem(sign: string, item: PreviewItem, style: PreviewStyle = plain): string {
  return `  ${sign} ${[item.operation, item.name].filter((part) => part !== '').join('  ')}${item.path ? `  ${style.dim(item.path)}` : ''}`;
}

/** An item of Changed, and below it what is updated and what is kept. */
export function changeLines(head: string, change: { update: readonly string[]; kept: readonly string[]; restored?: boolean; documentName?: string }, style: PreviewStyle = plain): string[] {
  const lines = [head];
  if (change.documentName !== undefined) lines.push(`      ${style.dim(`the document now calls it "${change.documentName}"; the request keeps its name (names are never touched)`)}`);
  if (change.restored) lines.push(`      ${style.green('back in the spec: the "no longer in the spec" mark is removed')}`);
  if (change.update.length > 0) lines.push(`      update: ${change.update.join(', ')}`);
  if (change.kept.length > 0) lines.push(`      ${style.yellow(`kept (your edits): ${change.kept.join(', ')}`)}`);
  return lines;
}

/** The notes of the new version, last. */
export function previewNotes(lines: string[], notes: readonly string[], style: PreviewStyle = plain): void {
  if (notes.length > 0) lines.push('', style.bold('Notes'), ...notes.map((n) => `  - ${n}`));
}

/** The plan as data for `--json` (without the file contents). */
export function planSummary(plan: UpdatePlan, written: boolean): Record<string, unknown> {
  return {
    folder: plan.folder,
    name: plan.folderName,
    from: plan.from,
    written,
    upToDate: plan.upToDate,
    warnings: plan.warnings,
    added: plan.added,
    changed: plan.changed,
    removed: plan.removed,
    ...(plan.folderChange ? { folderChange: plan.folderChange } : {}),
    newVariables: plan.newVariables,
    carriedVariables: plan.carriedVariables,
    updatedVariables: plan.updatedVariables,
    environment: plan.environment,
    documentChanged: plan.documentChanged,
    ...(plan.source !== undefined ? { source: plan.source } : {}),
    notes: plan.notes,
  };
}
