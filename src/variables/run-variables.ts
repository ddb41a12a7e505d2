/**
 * The variables of a run or a session in memory: the snapshot read from the data folder once,
 * the current data-file row, `--var`, and what scripts changed. Script changes apply at once for
 * the rest of the run (or session) and are written to the data folder when it saves (a run: once,
 * at its end): values of variables declared secret to the secret store (encrypted), all others
 * to the script values.
 */
import type { HeldEnvironmentChanges, ScriptScope, WorkspaceData } from '../appdata/index.js';
import type { Variable } from '../model/index.js';
import { scopeFrom, secretKeysOf, type VariableSnapshot } from '../request/variable-snapshot.js';
import type { ScopeChanges, ScriptVariables, VariableValues } from '../scripts/index.js';
import { templateText, type StoredValue, type VariableScope } from '../template/index.js';
import { SecretMask } from './secret-mask.js';
import { asText, putOwn, rowFill, type DataRow } from './data-file.js';

type PersistedScope = 'environment' | 'collection' | 'globals';
type SecretScope = 'environment' | 'collection';

interface Pending {
  cleared: boolean;
  /** Script values set (JSON data, as scripts set them) and unset. */
  set: Record<string, StoredValue>;
  unset: Set<string>;
  /** Secret store values: a string sets, `null` unsets. */
  secrets: Record<string, string | null>;
}

export class RunVariables {
  /** The data file's row of this iteration, its values as the file has them (scripts get them so; templates as text). */
  iterationData: DataRow = {};
  private rowTexts: { row: DataRow; text: Record<string, string | null> } | undefined;
  private readonly pending = new Map<PersistedScope, Pending>();
  /** Names declared secret in the active environment and in the workspace variables. */
  private readonly secretKeys: Record<SecretScope, ReadonlySet<string>>;
  /** Every secret value this run knew, to keep them out of reports and history. */
  readonly mask = new SecretMask();
  /**
   * Non-text values scripts set during this run for variables declared secret, as they set them:
   * the secret store keeps text (their JSON), later scripts of the run read them back with their
   * type. (Other values keep their type in the snapshot's script values, and in the data folder.)
   */
  private readonly typed: Record<SecretScope, VariableValues> = { environment: {}, collection: {} };
  /**
   * `forScripts`'s merged values, kept until scripts change a scope (`apply`): merging walks every
   * variable of the environment and the workspace, twice per scripted request otherwise.
   */
  private mergedForScripts: Record<PersistedScope, VariableValues> | undefined;
  /**
   * Variables the files define that a script unset (or cleared) in this run: gone for the rest of
   * the run, from scripts and `{{ }}`, as Newman's unset; the files keep them for the next run.
   */
  private readonly hidden: Record<SecretScope, Set<string>> = { environment: new Set(), collection: new Set() };

  constructor(
    readonly snapshot: VariableSnapshot,
    readonly cliVars: ReadonlyMap<string, string>,
  ) {
    this.secretKeys = { environment: secretKeysOf(snapshot.environment?.variables ?? []), collection: secretKeysOf(snapshot.workspaceVariables) };
    for (const scope of ['environment', 'collection'] as const) {
      const values = snapshot.scriptValues[scope];
      const secrets = this.secretsOf(scope);
      for (const key of this.secretKeys[scope]) {
        if (!Object.hasOwn(values, key)) continue;
        // A plain-text copy an older Ferry kept: it won over the stored secret then, so it still
        // does; at the end of the run it moves to the secret store.
        putOwn(secrets, key, asText(values[key]));
        delete values[key];
        const pending = this.pendingOf(scope);
        putOwn(pending.secrets, key, secrets[key]!);
        pending.unset.add(key);
      }
    }
    for (const secrets of Object.values(snapshot.secrets)) for (const value of Object.values(secrets)) this.mask.add(value);
  }

  /** `iterationData` as `{{name}}` fills it, made once per row (a run's sends of one iteration share it). */
  private iterationText(): Record<string, string | null> {
    if (this.rowTexts?.row !== this.iterationData) this.rowTexts = { row: this.iterationData, text: rowFill(this.iterationData) };
    return this.rowTexts.text;
  }

  /**
   * Names declared secret (in the environment, or in ferry.yaml: `collection`) that nothing gives a
   * value: not this computer's secret store, a script, `--var`, a data row (a null there fills
   * nothing), nor a plain variable of the same name. A request using one sends `{{name}}` as
   * written; on a CI machine, which has no secret store, that is what happens unless `--var` gives it.
   */
  secretsWithoutValue(rows: readonly DataRow[]): Array<{ key: string; scope: SecretScope }> {
    const s = this.snapshot;
    const plain = [...(s.environment?.variables ?? []), ...s.workspaceVariables].filter((v) => !v.secret && v.enabled !== false && v.value !== '');
    const given = (key: string) =>
      this.cliVars.has(key) ||
      rowGives(rows, key) ||
      Object.hasOwn(s.secrets.environment, key) ||
      Object.hasOwn(s.secrets.workspace, key) ||
      Object.values(s.scriptValues).some((values) => Object.hasOwn(values, key)) ||
      plain.some((v) => v.key === key);
    return (['environment', 'collection'] as const).flatMap((scope) => [...this.secretKeys[scope]].filter((key) => !given(key)).map((key) => ({ key, scope })));
  }

  /**
   * Names declared secret that data rows give `null`, with those rows (1 for the first): a null
   * leaves `{{name}}` as written in its iteration and hides whatever else would fill it, this
   * computer's secret value included, as it hides an environment's value (rowFill, as Newman does).
   * A name `--var` gives is not listed: `--var` wins over the row.
   */
  secretsNulledByRows(rows: readonly DataRow[]): Array<{ key: string; scope: SecretScope; rows: number[] }> {
    const out: Array<{ key: string; scope: SecretScope; rows: number[] }> = [];
    for (const scope of ['environment', 'collection'] as const) {
      for (const key of this.secretKeys[scope]) {
        if (this.cliVars.has(key) || out.some((o) => o.key === key)) continue;
        const nulled = rows.flatMap((row, i) => (Object.hasOwn(row, key) && row[key] === null ? [i + 1] : []));
        if (nulled.length > 0) out.push({ key, scope, rows: nulled });
      }
    }
    return out;
  }

  /** Whether `key` has a value from a source other than an environment file: --var, a data row, ferry.yaml, this computer's secrets or a script's values. */
  hasValueWithoutEnvironment(key: string, rows: readonly DataRow[]): boolean {
    const s = this.snapshot;
    return (
      this.cliVars.has(key) ||
      rowGives(rows, key) ||
      s.workspaceVariables.some((v) => v.key === key && v.enabled !== false) ||
      Object.hasOwn(s.secrets.workspace, key) ||
      Object.values(s.scriptValues).some((values) => Object.hasOwn(values, key))
    );
  }

  /** The template scope for one send; `local` are this request's `pm.variables.set` values. */
  scope(local: VariableValues = {}): VariableScope {
    // `pm.variables.set` values are script values, filled as Postman fills them (as a data row's are).
    const localText: Record<string, string> = {};
    for (const [key, value] of Object.entries(local)) putOwn(localText, key, templateText(value));
    const row = this.iterationText();
    const snapshot = this.visibleSnapshot();
    const globals = snapshot.scriptValues.globals;
    if (Object.keys(globals).length === 0) return scopeFrom(snapshot, [row, localText, this.cliVars]);
    // Globals (set only by scripts) come last: after the workspace's own variables.
    const known = new Set([...snapshot.workspaceVariables.map((v) => v.key), ...Object.keys(snapshot.scriptValues.collection)]);
    const extra: Variable[] = Object.entries(globals)
      .filter(([key]) => !known.has(key))
      .map(([key, value]) => ({ key, value: templateText(value), enabled: true, secret: false }));
    return scopeFrom({ ...snapshot, workspaceVariables: [...snapshot.workspaceVariables, ...extra] }, [row, localText, this.cliVars]);
  }

  /** The snapshot without the file variables scripts unset in this run (most runs: the snapshot itself). */
  private visibleSnapshot(): VariableSnapshot {
    const { environment: envHidden, collection: wsHidden } = this.hidden;
    if (envHidden.size === 0 && wsHidden.size === 0) return this.snapshot;
    const s = this.snapshot;
    return {
      ...s,
      ...(s.environment ? { environment: { ...s.environment, variables: s.environment.variables.filter((v) => v.secret || !envHidden.has(v.key)) } } : {}),
      workspaceVariables: s.workspaceVariables.filter((v) => v.secret || !wsHidden.has(v.key)),
    };
  }

  /** What scripts see: file values, secrets and earlier script-set values merged per scope (copies: the caller may change them). */
  forScripts(local: VariableValues = {}): ScriptVariables {
    const merged = (this.mergedForScripts ??= this.mergeForScripts());
    const s = this.snapshot;
    return {
      environment: { ...merged.environment },
      ...(s.environment ? { environmentName: s.environment.name, ...(s.environmentId === undefined ? {} : { environmentId: s.environmentId }) } : {}),
      collection: { ...merged.collection },
      globals: { ...merged.globals },
      iterationData: { ...this.iterationData },
      local: { ...local },
    };
  }

  private mergeForScripts(): Record<PersistedScope, VariableValues> {
    const s = this.snapshot;
    const environment: VariableValues = {
      ...(s.environment ? layerValues(s.environment.variables, s.scriptValues.environment, s.secrets.environment, this.hidden.environment) : s.scriptValues.environment),
      ...this.typed.environment,
    };
    // `--var` (alias `--env-var`) values are environment values to scripts, as Newman's --env-var
    // are, and win as they do in the request: `pm.environment.get('token')` is what was sent.
    for (const [key, value] of this.cliVars) putOwn(environment, key, value);
    return {
      environment,
      collection: { ...layerValues(s.workspaceVariables, s.scriptValues.collection, s.secrets.workspace, this.hidden.collection), ...this.typed.collection },
      globals: { ...s.scriptValues.globals },
    };
  }

  /** Applies what scripts did to the environment, collection and globals. */
  apply(changes: Record<string, ScopeChanges>): void {
    for (const scope of ['environment', 'collection', 'globals'] as const) {
      const change = changes[scope];
      if (!change || (!change.cleared && change.unset.length === 0 && Object.keys(change.set).length === 0)) continue;
      this.mergedForScripts = undefined;
      const values = this.snapshot.scriptValues[scope];
      const typed: VariableValues = scope === 'globals' ? {} : this.typed[scope];
      const secretKeys = scope === 'globals' ? new Set<string>() : this.secretKeys[scope];
      const secrets = scope === 'globals' ? {} : this.secretsOf(scope);
      const pending = this.pendingOf(scope);
      const hidden = scope === 'globals' ? undefined : this.hidden[scope];
      if (change.cleared) {
        for (const key of Object.keys(values)) delete values[key];
        for (const key of Object.keys(typed)) delete typed[key];
        pending.cleared = true;
        pending.set = {};
        pending.unset.clear();
        if (hidden && scope !== 'globals') for (const v of this.fileVariables(scope)) hidden.add(v.key);
        // Stored secret values stay: one may have been given by hand (`ferry secret set`), and the
        // secret store holds the only copy. `unset(name)` removes one on purpose.
      }
      for (const key of change.unset) {
        delete typed[key];
        hidden?.add(key);
        if (secretKeys.has(key)) {
          delete secrets[key];
          putOwn(pending.secrets, key, null);
        } else {
          delete values[key];
          delete pending.set[key];
          pending.unset.add(key);
        }
      }
      for (const [key, value] of Object.entries(change.set)) {
        hidden?.delete(key);
        if (secretKeys.has(key)) {
          const text = asText(value);
          if (typeof value === 'string') delete typed[key];
          else putOwn(typed, key, value);
          putOwn(secrets, key, text);
          putOwn(pending.secrets, key, text);
          this.mask.add(text);
        } else {
          putOwn(values, key, value);
          putOwn(pending.set, key, value);
          pending.unset.delete(key);
        }
      }
    }
  }

  /** Writes the run's script changes to the data folder: secrets first, then one update per scope. */
  async persist(data: WorkspaceData | undefined): Promise<void> {
    if (!data || this.pending.size === 0) return;
    // Alone with environment renames and deletes (of this process or another): never between a rename's moves of the data.
    await data.exclusive((changes) => this.persistNow(data, changes));
  }

  private async persistNow(data: WorkspaceData, changes: HeldEnvironmentChanges): Promise<void> {
    for (const [scope, pending] of this.pending) {
      let key: ScriptScope;
      let secretScope: string;
      if (scope === 'environment') {
        // The environment as it is now: renamed since the run read it (the app, `ferry env rename`), under its new id; deleted, nowhere.
        const id = this.snapshot.environmentId && changes.since(this.snapshot.environmentId, this.snapshot.environmentMark);
        if (!id) continue; // no active environment: nothing to keep them in
        key = `environment:${id}`;
        secretScope = id;
      } else {
        key = scope;
        secretScope = 'workspace';
      }
      // Secrets before script values: a plain copy is removed only once the secret store has the value.
      for (const [name, value] of Object.entries(pending.secrets)) {
        if (value === null) await data.secrets.delete(secretScope, name);
        else await data.secrets.set(secretScope, name, value);
      }
      if (pending.cleared) await data.clearScriptValues(key);
      await data.updateScriptValues(key, pending.set, [...pending.unset]);
    }
    this.pending.clear();
  }

  private fileVariables(scope: SecretScope): readonly Variable[] {
    return scope === 'environment' ? (this.snapshot.environment?.variables ?? []) : this.snapshot.workspaceVariables;
  }

  private secretsOf(scope: SecretScope): Record<string, string> {
    return scope === 'environment' ? this.snapshot.secrets.environment : this.snapshot.secrets.workspace;
  }

  private pendingOf(scope: PersistedScope): Pending {
    let pending = this.pending.get(scope);
    if (!pending) this.pending.set(scope, (pending = { cleared: false, set: {}, unset: new Set(), secrets: {} }));
    return pending;
  }
}

function layerValues(variables: readonly Variable[], scripted: Record<string, StoredValue>, secrets: Record<string, string>, hidden: ReadonlySet<string>): VariableValues {
  const out: VariableValues = {};
  for (const v of variables) {
    if (v.enabled === false || Object.hasOwn(out, v.key) || (!v.secret && hidden.has(v.key))) continue;
    const value = v.secret ? (Object.hasOwn(secrets, v.key) ? secrets[v.key] : undefined) : v.value;
    if (value !== undefined) putOwn(out, v.key, value);
  }
  for (const [key, value] of Object.entries(scripted)) putOwn(out, key, value);
  return out;
}

/** Whether some data row gives `key` a value: a null fills nothing (`{{key}}` stays as written), so it gives none. */
function rowGives(rows: readonly DataRow[], key: string): boolean {
  return rows.some((row) => Object.hasOwn(row, key) && row[key] !== null);
}
