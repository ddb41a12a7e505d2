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

export function formatPreview(plan: UpdatePlan, style: PreviewStyle = plain): string {
  const lines: string[] = [style.bold(`Update "${plan.folderName}" from ${plan.from}`)];
  for (const warning of plan.warnings) lines.push(style.yellow(`Warning: ${warning}`));
  if (plan.upToDate) {
    lines.push('The folder already matches this version.');
    return lines.join('\n');
  }
  const section = (title: string, count: number) => lines.push('', style.bold(`${title} (${count})`));
  if (plan.added.length > 0) {
    section('Added', plan.added.length);
    for (const r of plan.added) lines.push(`  ${style.green('+')} ${r.operation}  ${r.name}  ${style.dim(r.path)}`);
  }
  if (plan.changed.length > 0 || plan.folderChange) {
    section('Changed', plan.changed.length + (plan.folderChange ? 1 : 0));
    if (plan.folderChange) lines.push(...changeLines(`  ~ folder settings of "${plan.folderName}"`, plan.folderChange.update, plan.folderChange.kept, false, style));
    for (const c of plan.changed) lines.push(...changeLines(`  ~ ${c.operation}  ${c.name}  ${style.dim(c.path)}`, c.update, c.kept, c.restored, style, c.documentName));
  }
  if (plan.removed.length > 0) {
    section('No longer in the spec (kept, marked)', plan.removed.length);
    for (const r of plan.removed) lines.push(`  ${style.red('-')} ${r.operation}  ${r.name}  ${style.dim(r.path)}`);
  }
  if (plan.newVariables.length > 0) {
    section(`New environment variables in "${plan.environment}"${plan.createsEnvironment ? ' (new environment)' : ''}`, plan.newVariables.length);
    for (const key of plan.newVariables) {
      const from = plan.carriedVariables[key];
      lines.push(`  ${style.green('+')} ${key}${from === undefined ? '' : style.dim(` (your value of ${from})`)}`);
    }
  }
  if (plan.updatedVariables.length > 0) {
    section(`Environment variables updated in "${plan.environment}"`, plan.updatedVariables.length);
    for (const key of plan.updatedVariables) lines.push(`  ~ ${key}`);
  }
  if (plan.added.length + plan.changed.length + plan.removed.length === 0 && !plan.folderChange) {
    lines.push('', 'No request changes.');
  }
  if (plan.documentChanged) lines.push('', 'The kept document is replaced by this version.');
  if (plan.source !== undefined) lines.push(`${plan.documentChanged ? '' : '\n'}The recorded source becomes ${plan.source} (where \`ferry update\` without --from reads the next version).`);
  if (plan.notes.length > 0) lines.push('', style.bold('Notes'), ...plan.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}

function changeLines(head: string, update: string[], kept: string[], restored: boolean, style: PreviewStyle, documentName?: string): string[] {
  const lines = [head];
  if (documentName !== undefined) lines.push(`      ${style.dim(`the document now calls it "${documentName}"; the request keeps its name (names are never touched)`)}`);
  if (restored) lines.push(`      ${style.green('back in the spec: the "no longer in the spec" mark is removed')}`);
  if (update.length > 0) lines.push(`      update: ${update.join(', ')}`);
  if (kept.length > 0) lines.push(`      ${style.yellow(`kept (your edits): ${kept.join(', ')}`)}`);
  return lines;
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
