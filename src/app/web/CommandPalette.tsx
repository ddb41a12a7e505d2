/**
 * The command palette (Ctrl/Cmd+K): one fuzzy search over the workspace's requests and folders,
 * its environments and the app's actions, used with the keyboard only — type, ↑/↓, Enter, Esc.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EnvironmentInfo, TreeItem } from '../shared/api.js';
import { fuzzyFilter, fuzzyMatch } from './fuzzy.js';
import { shownName } from '../../support/shown-name.js';

/** An action of the app the palette offers (New request, Import…), with its shortcut when it has one. */
export interface PaletteCommand {
  label: string;
  shortcut?: string;
  run(): void;
}

export interface PaletteTargets {
  openRequest(path: string): void;
  runFolder(path: string): void;
  switchEnvironment(id: string | null): void;
}

interface Entry {
  key: string;
  group: 'Request' | 'Folder' | 'Environment' | 'Action';
  label: string;
  detail: string;
  /** What the query is matched against. */
  text: string;
  /**
   * Where the name starts in `text` (a folder path before it): kept apart, not guessed from " / ",
   * since a name may hold " / " itself (a request `Users / Admin` in folder `api`).
   */
  nameAt: number;
  /** Where the label shows `text` from: the label's letter at position `labelAt + i` is the text's `textAt + i`. */
  textAt: number;
  labelAt: number;
  run(): void;
}

/** The label in pieces, the letters of the query's best alignment marked (`<mark>`). */
function marked(entry: Entry, query: string): Array<string | { mark: string }> {
  const positions = query.trim() === '' ? [] : (fuzzyMatch(query, entry.text, entry.nameAt)?.positions ?? []);
  const at = new Set<number>();
  for (const p of positions) {
    const i = p - entry.textAt + entry.labelAt;
    if (p >= entry.textAt && i < entry.label.length) at.add(i);
  }
  const out: Array<string | { mark: string }> = [];
  let plain = '';
  let mark = '';
  for (let i = 0; i < entry.label.length; i++) {
    if (at.has(i)) {
      if (plain) { out.push(plain); plain = ''; }
      mark += entry.label[i];
    } else {
      if (mark) { out.push({ mark }); mark = ''; }
      plain += entry.label[i];
    }
  }
  if (plain) out.push(plain);
  if (mark) out.push({ mark });
  return out;
}

const SHOWN = 50;

function entriesOf(tree: TreeItem & { type: 'folder' }, environments: EnvironmentInfo[], commands: PaletteCommand[], targets: PaletteTargets): Entry[] {
  const out: Entry[] = commands.map((c) => ({ key: `a:${c.label}`, group: 'Action', label: c.label, detail: c.shortcut ?? '', text: c.label, nameAt: 0, textAt: 0, labelAt: 0, run: c.run }));
  for (const env of environments) {
    out.push({ key: `e:${env.id}`, group: 'Environment', label: `Use environment ${shownName(env.name)}`, detail: env.id, text: `env ${shownName(env.name)}`, nameAt: 0, textAt: 4, labelAt: 16, run: () => targets.switchEnvironment(env.id) });
  }
  out.push({ key: 'e:', group: 'Environment', label: 'Use no environment', detail: '', text: 'env none no environment', nameAt: 0, textAt: 9, labelAt: 4, run: () => targets.switchEnvironment(null) });
  const walk = (folder: TreeItem & { type: 'folder' }, trail: string) => {
    for (const child of folder.children) {
      if (child.type === 'folder') {
        const label = trail ? `${trail} / ${shownName(child.name)}` : shownName(child.name);
        out.push({ key: `f:${child.path}`, group: 'Folder', label: `Run ${label}`, detail: 'folder', text: `${label} folder`, nameAt: trail ? trail.length + 3 : 0, textAt: 0, labelAt: 4, run: () => targets.runFolder(child.path) });
        walk(child, label);
      } else if (child.type === 'request') {
        out.push({
          key: `r:${child.path}`, group: 'Request', label: shownName(child.name), detail: `${child.tag}  ${trail}`,
          text: trail ? `${trail} / ${shownName(child.name)}` : shownName(child.name), nameAt: trail ? trail.length + 3 : 0, textAt: trail ? trail.length + 3 : 0, labelAt: 0, run: () => targets.openRequest(child.path),
        });
      }
    }
  };
  walk(tree, '');
  return out;
}

export function CommandPalette({ tree, environments, commands, targets }: { tree: TreeItem & { type: 'folder' }; environments: EnvironmentInfo[]; commands: PaletteCommand[]; targets: PaletteTargets }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  /** What had the focus when the palette opened: it gets it back when the palette closes (a modal dialog's rule). */
  const opener = useRef<Element | null>(null);
  const giveBack = () => {
    const back = opener.current;
    opener.current = null;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        if (document.activeElement?.closest('.palette')) {
          giveBack();
          setOpen(false);
        } else {
          opener.current = document.activeElement;
          setOpen(true);
        }
        setQuery('');
        setAt(0);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Built when the palette opens, from the tree as it is then.
  const entries = useMemo(() => (open ? entriesOf(tree, environments, commands, targets) : []), [open, tree, environments]);
  const shown = useMemo(() => fuzzyFilter(entries, query, (e) => e.text, SHOWN, (e) => e.nameAt), [entries, query]);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [at]);

  if (!open) return null;
  // Before the choice runs: a dialog it opens takes the focus from (and gives it back to) the opener.
  const close = () => {
    giveBack();
    setOpen(false);
  };
  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    close();
    entry.run();
  };
  return (
    <div className="dialog-backdrop palette-backdrop" onClick={close}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" onClick={(e) => e.stopPropagation()}>
        <input
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[at] ? `palette-option-${at}` : undefined}
          aria-label="Search requests, folders, environments and actions"
          placeholder="Search requests, folders, environments, actions…"
          value={query}
          onChange={(e) => { setQuery(e.target.value); setAt(0); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setAt((i) => Math.min(i + 1, shown.length - 1)); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); setAt((i) => Math.max(i - 1, 0)); }
            // Plain Enter: Ctrl/Cmd+Enter (send) is not a choice, and the open palette keeps it from the request behind.
            else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) { e.preventDefault(); choose(shown[at]); }
            else if (e.key === 'Escape') { e.preventDefault(); close(); }
            else if (e.key === 'Tab') e.preventDefault(); // the one field: Tab stays in the dialog
          }}
        />
        <ul id="palette-list" role="listbox" aria-label="Matches" ref={list}>
          {shown.map((entry, i) => (
            <li key={entry.key} id={`palette-option-${i}`} role="option" aria-selected={i === at} className={i === at ? 'on' : ''} onMouseMove={() => setAt(i)} onClick={() => choose(entry)}>
              <span className="palette-group">{entry.group}</span>
              <span className="palette-label">{marked(entry, query).map((piece, j) => (typeof piece === 'string' ? piece : <mark key={j}>{piece.mark}</mark>))}</span>
              <span className="palette-detail">{entry.detail}</span>
            </li>
          ))}
          {shown.length === 0 && <li className="muted">Nothing matches “{query}”.</li>}
        </ul>
        <p className="palette-help muted">↑ ↓ to move · Enter to choose · Esc to close</p>
      </div>
    </div>
  );
}
