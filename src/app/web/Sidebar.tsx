/**
 * The request tree: folders and requests in `seq` order with method and kind badges, a filter,
 * a context menu, and drag and drop onto folders. Only the rows in view are rendered, so a
 * 10,000-request workspace scrolls smoothly.
 */
import { useMemo, useRef, useState, type UIEvent } from 'react';
import type { TreeItem } from '../shared/api.js';

const ROW = 26;

export interface Row {
  item: TreeItem;
  depth: number;
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
  renameFolder(path: string): void;
  run(folder: string): void;
  copyAsCode(path: string): void;
  /** Update a folder imported from OpenAPI from a new version of its document (4.5). */
  updateFromSpec(folder: string): void;
  /** The import dialog, its target folder chosen (`''`: the workspace root; spec 4.1). */
  importInto(folder: string): void;
}

function flatten(folder: TreeItem & { type: 'folder' }, open: Set<string>, filter: string, depth = 0, out: Row[] = []): Row[] {
  for (const child of folder.children) {
    if (child.type === 'folder') {
      const inner = flatten(child, open, filter, depth + 1, []);
      if (filter && inner.length === 0 && !child.name.toLowerCase().includes(filter)) continue;
      out.push({ item: child, depth });
      if (filter || open.has(child.path)) out.push(...inner);
    } else {
      const name = child.type === 'request' ? `${child.name} ${child.tag} ${child.path}` : child.path;
      if (filter && !name.toLowerCase().includes(filter)) continue;
      out.push({ item: child, depth });
    }
  }
  return out;
}

export function Sidebar({ tree, selected, actions }: { tree: TreeItem & { type: 'folder' }; selected: string | null; actions: SidebarActions }) {
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  const [menu, setMenu] = useState<{ x: number; y: number; item: TreeItem } | null>(null);
  const [dropOn, setDropOn] = useState<string | null>(null);
  /** Dropping on this row places the dragged item before it (reorder) rather than into it. */
  const [dropBefore, setDropBefore] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => flatten(tree, open, filter.trim().toLowerCase()), [tree, open, filter]);
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
  const folderOf = (item: TreeItem) => (item.type === 'folder' ? item.path : item.path.split('/').slice(0, -1).join('/'));

  return (
    <aside className="sidebar" aria-label="Requests" onClick={() => setMenu(null)}>
      <div className="sidebar-tools">
        <input type="search" placeholder="Filter" aria-label="Filter requests" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <button title="New request" aria-label="New request" onClick={() => actions.newRequest(selected ? selected.split('/').slice(0, -1).join('/') : '')}>+</button>
        <button title="New folder" aria-label="New folder" onClick={() => actions.newFolder('')}>+▤</button>
      </div>
      <div
        className={`tree ${dropOn === '' ? 'drop' : ''}`}
        role="tree"
        ref={list}
        onScroll={onScroll}
        onDragOver={(e) => { e.preventDefault(); setDropOn(''); }}
        onDragLeave={() => setDropOn(null)}
        onDrop={(e) => { e.preventDefault(); setDropOn(null); const what = dragged(e); if (what) actions.move(what.path, '', what.isFolder); }}
      >
        <div style={{ height: rows.length * ROW, position: 'relative' }}>
          {rows.slice(first, last).map(({ item, depth }, i) => {
            const top = (first + i) * ROW;
            const style = { top, height: ROW, paddingLeft: 8 + depth * 14 };
            const common = {
              key: `${item.type}:${item.path}`,
              style,
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
                  <span className="caret">{open.has(item.path) || filter ? '▾' : '▸'}</span> {item.name}
                </div>
              );
            }
            if (item.type === 'broken') {
              return <div {...common} role="treeitem" className="row broken" title={item.message}>⚠ {item.path}</div>;
            }
            return (
              <div
                {...common}
                role="treeitem"
                aria-selected={selected === item.path}
                className={`row request ${selected === item.path ? 'selected' : ''} ${item.removed ? 'removed' : ''} ${dropOn === item.path ? 'drop-before' : ''}`}
                title={item.removed ? 'No longer in the API spec' : item.path}
                data-path={item.path}
                draggable
                onDragStart={(e) => e.dataTransfer.setData('text/ferry-request', item.path)}
                onDragOver={(e) => overRow(e, item)}
                onDrop={(e) => dropOnRow(e, item)}
                onClick={() => actions.select(item.path)}
              >
                <span className={`badge m-${item.kind === 'http' ? item.method.toLowerCase() : item.kind}`}>{item.kind === 'http' ? item.method : item.tag.split(' ')[0]}</span>
                <span className="label">{item.name}</span>
              </div>
            );
          })}
        </div>
        {rows.length === 0 && (filter
          ? <p className="muted pad">Nothing matches the filter.</p>
          : <p className="muted pad">No requests yet: create one with + or <button className="link" onClick={() => actions.importInto('')}>import</button>.</p>)}
      </div>
      {menu && (
        <ul className="menu" role="menu" style={{ left: menu.x, top: menu.y }}>
          {menu.item.type === 'request' && (
            <>
              <li role="menuitem" onClick={() => actions.duplicate(menu.item.path)}>Duplicate</li>
              <li role="menuitem" onClick={() => actions.copyAsCode(menu.item.path)}>Copy as code…</li>
            </>
          )}
          {menu.item.type === 'folder' && (
            <>
              <li role="menuitem" onClick={() => actions.newRequest(menu.item.path)}>New request here</li>
              <li role="menuitem" onClick={() => actions.newFolder(menu.item.path)}>New folder here</li>
              <li role="menuitem" onClick={() => actions.run(menu.item.path)}>Run folder</li>
              <li role="menuitem" onClick={() => actions.renameFolder(menu.item.path)}>Rename…</li>
              <li role="menuitem" onClick={() => actions.importInto(menu.item.path)}>Import into folder…</li>
              {menu.item.openapi && <li role="menuitem" onClick={() => actions.updateFromSpec(menu.item.path)}>Update from API spec…</li>}
            </>
          )}
          {menu.item.type !== 'folder' && <li role="menuitem" onClick={() => actions.newRequest(folderOf(menu.item))}>New request beside</li>}
          <li role="menuitem" className="danger" onClick={() => actions.remove(menu.item)}>Delete</li>
        </ul>
      )}
    </aside>
  );
}
