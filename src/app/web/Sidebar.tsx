/**
 * The request tree: folders and requests in `seq` order with method and kind badges, a filter,
 * a context menu, and drag and drop onto folders. Only the rows in view are rendered, so a
 * 10,000-request workspace scrolls smoothly.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import type { TreeItem } from '../shared/api.js';
import { parentOf } from './tree.js';
import { shownName } from '../../support/shown-name.js';

const ROW = 26;

export interface Row {
  item: TreeItem;
  depth: number;
  /** Its place among its folder's rows shown (from 1) and their count: a screen reader says "2 of 5, level 2" (only the rows in view exist, so it cannot count them itself). */
  pos: number;
  size: number;
}

export interface SidebarActions {
  select(path: string): void;
  newRequest(folder: string): void;
  newFolder(parent: string): void;
  duplicate(path: string): void;
  remove(item: TreeItem): void;
  /** Moves a request (or, `isFolder`, a folder) into `folder`. */
  move(path: string, folder: string, isFolder?: boolean): void;
  /** Places a request or folder before `target` (moving it to the target's folder first). */
  place(path: string, isFolder: boolean, target: TreeItem): void;
  /** `name`: the folder's display name, which the question offers (its directory's name may differ: `Team- Blue` for `Team: Blue`). */
  renameFolder(path: string, name: string): void;
  run(folder: string): void;
  copyAsCode(path: string): void;
  /** Update a folder imported from OpenAPI from a new version of its document (4.5). */
  updateFromSpec(folder: string): void;
  /** The import dialog, its target folder chosen (`''`: the workspace root; spec 4.1). */
  importInto(folder: string): void;
  /** A folder's settings (`_folder.yaml`); `''`: the workspace's (ferry.yaml), the collection root's. */
  settings(folder: string): void;
}

function flatten(folder: TreeItem & { type: 'folder' }, open: Set<string>, filter: string, depth = 0, out: Row[] = []): Row[] {
  const siblings: Row[] = [];
  for (const child of folder.children) {
    if (child.type === 'folder') {
      const inner = flatten(child, open, filter, depth + 1, []);
      if (filter && inner.length === 0 && !child.name.toLowerCase().includes(filter)) continue;
      const row = { item: child, depth, pos: siblings.length + 1, size: 0 };
      siblings.push(row);
      out.push(row);
      if (filter || open.has(child.path)) out.push(...inner);
    } else {
      const name = child.type === 'request' ? `${child.name} ${child.tag} ${child.path}` : child.path;
      if (filter && !name.toLowerCase().includes(filter)) continue;
      const row = { item: child, depth, pos: siblings.length + 1, size: 0 };
      siblings.push(row);
      out.push(row);
    }
  }
  for (const row of siblings) row.size = siblings.length;
  return out;
}

/** `id` and `width`: the splitter beside it names it and sets its width. */
export function Sidebar({ tree, selected, actions, id, width }: { tree: TreeItem & { type: 'folder' }; selected: string | null; actions: SidebarActions; id?: string; width?: number }) {
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  const [menu, setMenu] = useState<{ x: number; y: number; item: TreeItem } | null>(null);
  const [dropOn, setDropOn] = useState<string | null>(null);
  /** Dropping on this row places the dragged item before it (reorder) rather than into it. */
  const [dropBefore, setDropBefore] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const rows = useMemo(() => flatten(tree, open, filter.trim().toLowerCase()), [tree, open, filter]);
  useEffect(() => {
    // The open request is shown in the tree (opened from the palette, History, a move): its folders open.
    const parts = selected?.split('/').slice(0, -1) ?? [];
    const above = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    setOpen((o) => (above.every((p) => o.has(p)) ? o : new Set([...o, ...above])));
  }, [selected]);
  useEffect(() => {
    // Rows are drawn for the tree's real height (a tall window, a resize), not a guess: else its lower part stays blank until a scroll.
    const el = list.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  /** The request opened elsewhere (the palette, History, the last one at start) that the tree has yet to scroll to. */
  const reveal = useRef<string | null>(null);
  useEffect(() => {
    reveal.current = selected;
  }, [selected]);
  /** The row the keyboard is on (an index into `rows`): the one row reachable with Tab (roving tabindex). */
  const [focusAt, setFocusAt] = useState<number | null>(null);
  // Not on every render: a scroll renders, and a large workspace has thousands of rows.
  const selectedAt = useMemo(() => rows.findIndex((r) => r.item.path === selected), [rows, selected]);
  useEffect(() => {
    // Once its folders are open (and the filter shows it), the open request's row is scrolled into view, centred; a row in view stays put.
    const el = list.current;
    if (!el || reveal.current === null || reveal.current !== selected || selectedAt < 0) return;
    reveal.current = null;
    if (selectedAt * ROW >= el.scrollTop && (selectedAt + 1) * ROW <= el.scrollTop + el.clientHeight) return;
    el.scrollTop = Math.max(0, selectedAt * ROW - (el.clientHeight - ROW) / 2);
    setScrollTop(el.scrollTop);
  }, [selected, selectedAt]);
  const tabStop = focusAt !== null && focusAt < rows.length ? focusAt : Math.max(0, selectedAt);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 10);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + 10);
  const toggle = (path: string) => setOpen((o) => {
    const next = new Set(o);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    return next;
  });
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    setScrollTop(e.currentTarget.scrollTop);
    setHeight(e.currentTarget.clientHeight);
  };
  const dragged = (e: React.DragEvent) => {
    const request = e.dataTransfer.getData('text/ferry-request');
    const folder = e.dataTransfer.getData('text/ferry-folder');
    return request ? { path: request, isFolder: false } : folder ? { path: folder, isFolder: true } : undefined;
  };
  /** The top third of a folder row, or anywhere on a request row, means "before this one". */
  const isBefore = (e: React.DragEvent, item: TreeItem) => item.type !== 'folder' || e.clientY - e.currentTarget.getBoundingClientRect().top < ROW / 3;
  const overRow = (e: React.DragEvent, item: TreeItem) => {
    e.preventDefault();
    e.stopPropagation();
    setDropOn(item.path);
    setDropBefore(isBefore(e, item));
  };
  const dropOnRow = (e: React.DragEvent, item: TreeItem) => {
    e.preventDefault();
    e.stopPropagation();
    setDropOn(null);
    const what = dragged(e);
    if (!what || what.path === item.path) return;
    if (!isBefore(e, item)) actions.move(what.path, item.path, what.isFolder);
    else actions.place(what.path, what.isFolder, item);
  };
  /** Moves the keyboard to row `at`, scrolling it into view first (only the rows in view exist). */
  const focusRow = (at: number) => {
    const index = Math.max(0, Math.min(rows.length - 1, at));
    const el = list.current;
    if (el) {
      if (index * ROW < el.scrollTop) el.scrollTop = index * ROW;
      else if ((index + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (index + 1) * ROW - el.clientHeight;
      setScrollTop(el.scrollTop);
    }
    setFocusAt(index);
    focusPending.current = true;
  };
  const focusPending = useRef(false);
  /** The row that had the keyboard, until the keyboard goes elsewhere: when it goes away (deleted, moved), the row now at its place takes the focus, not the page's body. */
  const focusedRow = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const gone = focusedRow.current;
    if (!gone || gone.isConnected || focusAt === null || rows.length === 0) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    focusRow(Math.min(focusAt, rows.length - 1));
  }, [rows]);
  useEffect(() => {
    if (!focusPending.current || focusAt === null) return;
    focusPending.current = false;
    list.current?.querySelector<HTMLElement>(`[data-index="${focusAt}"]`)?.focus();
  });
  /** The tree by keyboard (WAI-ARIA tree pattern): arrows move, open and close; Enter opens; the menu key or Shift+F10 opens the menu. */
  const onTreeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = Number((e.target as HTMLElement).dataset.index);
    const row = rows[at];
    if (!row) return;
    const { item } = row;
    const isOpen = item.type === 'folder' && (open.has(item.path) || !!filter);
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusRow(at + 1),
      ArrowUp: () => focusRow(at - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      ArrowRight: () => (item.type === 'folder' && !isOpen ? toggle(item.path) : isOpen ? focusRow(at + 1) : undefined),
      ArrowLeft: () => {
        if (isOpen && !filter) return toggle(item.path);
        const parent = rows.findIndex((r) => r.item.path === parentOf(item.path));
        if (parent >= 0 && parent < at) focusRow(parent);
      },
      Enter: () => (item.type === 'folder' ? toggle(item.path) : item.type === 'request' ? actions.select(item.path) : undefined),
      ' ': () => keys.Enter!(),
      ContextMenu: () => {
        const box = (e.target as HTMLElement).getBoundingClientRect();
        setMenu({ x: box.left + 24, y: box.bottom, item });
      },
    };
    const key = e.key === 'F10' && e.shiftKey ? 'ContextMenu' : e.key;
    if (!keys[key]) return;
    e.preventDefault();
    keys[key]();
  };
  useEffect(() => {
    // A menu opened (by mouse or keyboard) takes the keyboard: its first item.
    if (menu) menuRef.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [menu]);
  const onMenuKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = items.indexOf(e.target as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    else if (e.key === 'Enter' || e.key === ' ') (e.target as HTMLElement).click();
    else if (e.key === 'Escape' || e.key === 'Tab') {
      setMenu(null);
      focusRow(tabStop);
    } else return;
    e.preventDefault();
  };
  const folderOf = (item: TreeItem) => (item.type === 'folder' ? item.path : parentOf(item.path));
  /** A menu item chosen: the keyboard goes back to the item's row first (the menu item goes away; a dialog the action opens gives the focus back there), then the action runs. */
  const choose = (run: () => void) => () => {
    const at = menu ? rows.findIndex((r) => r.item.path === menu.item.path) : -1;
    setMenu(null);
    if (at >= 0) {
      setFocusAt(at);
      list.current?.querySelector<HTMLElement>(`[data-index="${at}"]`)?.focus();
    }
    run();
  };

  return (
    <aside className="sidebar" id={id} style={width === undefined ? undefined : { width }} aria-label="Requests" onClick={() => setMenu(null)}>
      <div className="sidebar-tools">
        <input type="search" placeholder="Filter" aria-label="Filter requests" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <button title="New request" aria-label="New request" onClick={() => actions.newRequest(selected ? parentOf(selected) : '')}>+</button>
        <button title="New folder" aria-label="New folder" onClick={() => actions.newFolder('')}>+▤</button>
      </div>
      <div
        className={`tree ${dropOn === '' ? 'drop' : ''}`}
        role="tree"
        aria-label="Requests"
        ref={list}
        onScroll={onScroll}
        onDragOver={(e) => { e.preventDefault(); setDropOn(''); }}
        onDragLeave={() => setDropOn(null)}
        onDrop={(e) => { e.preventDefault(); setDropOn(null); const what = dragged(e); if (what) actions.move(what.path, '', what.isFolder); }}
        onKeyDown={onTreeKey}
      >
        <div style={{ height: rows.length * ROW, position: 'relative' }}>
          {rows.slice(first, last).map(({ item, depth, pos, size }, i) => {
            const top = (first + i) * ROW;
            const style = { top, height: ROW, paddingLeft: 8 + depth * 14 };
            const index = first + i;
            const common = {
              key: `${item.type}:${item.path}`,
              style,
              'data-index': index,
              tabIndex: index === tabStop ? 0 : -1,
              'aria-level': depth + 1,
              'aria-posinset': pos,
              'aria-setsize': size,
              onFocus: (e: React.FocusEvent<HTMLElement>) => { focusedRow.current = e.currentTarget; setFocusAt(index); },
              onBlur: (e: React.FocusEvent<HTMLElement>) => { if (e.relatedTarget) focusedRow.current = null; },
              onContextMenu: (e: React.MouseEvent) => { e.preventDefault(); e.stopPropagation(); setMenu({ x: e.clientX, y: e.clientY, item }); },
            };
            if (item.type === 'folder') {
              return (
                <div
                  {...common}
                  role="treeitem"
                  aria-expanded={open.has(item.path) || !!filter}
                  className={`row folder ${dropOn === item.path ? (dropBefore ? 'drop-before' : 'drop') : ''}`}
                  data-path={item.path}
                  onClick={() => toggle(item.path)}
                  draggable
                  onDragStart={(e) => e.dataTransfer.setData('text/ferry-folder', item.path)}
                  onDragOver={(e) => overRow(e, item)}
                  onDrop={(e) => dropOnRow(e, item)}
                >
                  <span className="caret" aria-hidden="true">{open.has(item.path) || filter ? '▾' : '▸'}</span> {shownName(item.name)}
                </div>
              );
            }
            if (item.type === 'broken') {
              // Why it does not load is in the row's name too: a tooltip reaches neither the keyboard nor a screen reader.
              return <div {...common} role="treeitem" className="row broken" title={item.message}><span aria-hidden="true">⚠</span> {shownName(item.path)}<span className="sr-only">does not load: {item.message}</span></div>;
            }
            return (
              <div
                {...common}
                role="treeitem"
                aria-selected={selected === item.path}
                className={`row request ${selected === item.path ? 'selected' : ''} ${item.removed ? 'removed' : ''} ${dropOn === item.path ? 'drop-before' : ''}`}
                title={item.removed ? 'No longer in the API spec' : shownName(item.path)}
                data-path={item.path}
                draggable
                onDragStart={(e) => e.dataTransfer.setData('text/ferry-request', item.path)}
                onDragOver={(e) => overRow(e, item)}
                onDrop={(e) => dropOnRow(e, item)}
                onClick={() => actions.select(item.path)}
              >
                <span className={`badge m-${badgeOf(item.tag).toLowerCase()}`} title={item.tag}>{badgeOf(item.tag)}</span>
                <span className="label">{shownName(item.name)}</span>
                {item.removed && <span className="sr-only"> (no longer in the API spec)</span>}
              </div>
            );
          })}
        </div>
        {rows.length === 0 && (filter
          ? <p className="muted pad">Nothing matches the filter.</p>
          : <p className="muted pad">No requests yet: create one with + or <button className="link" onClick={() => actions.importInto('')}>import</button>.</p>)}
      </div>
      {/* After the tree: the keyboard reaches the tree first, as before. */}
      <div className="sidebar-foot">
        <button title="The auth, headers, scripts and docs every request inherits (ferry.yaml)" onClick={() => actions.settings('')}>⚙ Workspace settings</button>
      </div>
      {menu && (
        <ul className="menu" role="menu" ref={menuRef} aria-label={`Actions for ${shownName(menu.item.path)}`} style={{ left: menu.x, top: menu.y }} onKeyDown={onMenuKey}>
          {menu.item.type === 'request' && (
            <>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.duplicate(menu.item.path))}>Duplicate</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.copyAsCode(menu.item.path))}>Copy as code…</li>
            </>
          )}
          {menu.item.type === 'folder' && (
            <>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.newRequest(menu.item.path))}>New request here</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.newFolder(menu.item.path))}>New folder here</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.run(menu.item.path))}>Run folder</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => menu.item.type === 'folder' && actions.renameFolder(menu.item.path, menu.item.name))}>Rename…</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.settings(menu.item.path))}>Settings…</li>
              <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.importInto(menu.item.path))}>Import into folder…</li>
              {menu.item.openapi && <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.updateFromSpec(menu.item.path))}>Update from API spec…</li>}
            </>
          )}
          {menu.item.type !== 'folder' && <li role="menuitem" tabIndex={-1} onClick={choose(() => actions.newRequest(folderOf(menu.item)))}>New request beside</li>}
          <li role="menuitem" tabIndex={-1} className="danger" onClick={choose(() => actions.remove(menu.item))}>Delete</li>
        </ul>
      )}
    </aside>
  );
}

/** A request's badge: its tag's first word (the kind table's `tag`: HTTP's method, `grpc`, `dns`…), which also picks its colour (`m-get`, `m-grpc`). */
/**
 * The badge of a request's row: its tag's first word, in the badge column's width. `websocket` and
 * `socketio` are shortened (`ws`, `sio`, as Postman and Insomnia badge WebSocket): wider, they
 * pushed the name right and the row out of line with its folder's other requests.
 */
function badgeOf(tag: string): string {
  const word = tag.split(' ')[0]!;
  return SHORT_BADGES[word] ?? word;
}
const SHORT_BADGES: Record<string, string> = { websocket: 'ws', socketio: 'sio' };
