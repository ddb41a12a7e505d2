/**
 * What the sidebar's rows and menus do (open, create, duplicate, delete, move, place, rename,
 * run, copy as code, update from spec, import into, settings): calls to the server, around the
 * open request's editor (open-request.ts) so an edit is saved first and the editor follows.
 */
import type { RequestFile } from '../shared/api.js';
import { shownName } from '../../support/shown-name.js';
import { api } from './api.js';
import type { OpenRequest } from './open-request.js';
import type { SidebarActions } from './Sidebar.js';
import { parentOf } from './tree.js';

export interface SidebarNeeds {
  editor: OpenRequest;
  setNotice: (message: string) => void;
  loadWorkspace: () => Promise<void>;
  openDialog: (dialog: { type: 'code'; path: string; request?: RequestFile } | { type: 'import'; into?: string } | { type: 'update'; folder: string } | { type: 'settings'; folder: string }) => void;
  openRunner: (folder: string) => void;
}

export function sidebarActions({ editor, setNotice, loadWorkspace, openDialog, openRunner }: SidebarNeeds): SidebarActions {
  const { saveNow, openRequest, moveItem, tracked, followMove, selectedRef, draftRef, unsavedRef } = editor;
  return {
    select: (path) => void openRequest(path),
    newRequest: async (folder) => {
      try {
        const { path } = await api.post<{ path: string }>('/api/request', { folder, name: 'New request' });
        await loadWorkspace();
        await openRequest(path);
      } catch (e) {
        setNotice((e as Error).message);
      }
    },
    newFolder: async (parent) => {
      const name = prompt('Folder name');
      if (!name) return;
      await api.post('/api/folder', { parent, name }).catch((e: Error) => setNotice(e.message));
      await loadWorkspace();
    },
    duplicate: async (path) => {
      await saveNow();
      try {
        const { request } = await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(path)}`);
        const created = await api.post<{ path: string }>('/api/request', { folder: parentOf(path), request: { ...request, name: `${request.name} copy` } });
        await loadWorkspace();
        await openRequest(created.path);
      } catch (e) {
        setNotice((e as Error).message);
        await loadWorkspace();
      }
    },
    remove: async (item) => {
      // Named as the tree shows it; the question says which file or directory goes.
      if (!confirm(item.type === 'folder'
        ? `Delete folder "${shownName(item.name)}" and everything in it? Its directory requests/${shownName(item.path)}/ is removed.`
        : `Delete request "${shownName(item.type === 'request' ? item.name : item.path.split('/').at(-1)!)}"? Its file requests/${shownName(item.path)} is removed.`)) return;
      const inIt = (open: string | null): open is string => open !== null && (open === item.path || (item.type === 'folder' && open.startsWith(`${item.path}/`)));
      await editor.removeWith(inIt, () => api.del(`/api/${item.type === 'folder' ? 'folder' : 'request'}?path=${encodeURIComponent(item.path)}`));
      await loadWorkspace();
    },
    move: async (path, folder, isFolder = false) => {
      await saveNow();
      try {
        await moveItem(path, folder, isFolder);
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    place: async (path, isFolder, target) => {
      await saveNow();
      try {
        const moved = await moveItem(path, parentOf(target.path), isFolder);
        await api.post('/api/tree/place', { path: moved, before: target.path });
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    renameFolder: async (path, shown) => {
      const name = prompt('New folder name', shown);
      if (!name) return;
      await saveNow();
      try {
        await tracked(api.post<{ path: string; notices?: string[] }>('/api/folder/rename', { path, name }).then((renamed) => {
          followMove(path, renamed.path);
          if (renamed.notices) setNotice(renamed.notices.join(' '));
        }));
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    run: openRunner,
    // An unsaved request (cURL, a file deleted elsewhere) has no file to read: the editor's version goes along.
    copyAsCode: (path) => void saveNow().then(() => openDialog({ type: 'code', path, ...(unsavedRef.current && path === selectedRef.current && draftRef.current ? { request: draftRef.current } : {}) })),
    updateFromSpec: (folder) => void saveNow().then(() => openDialog({ type: 'update', folder })),
    importInto: (folder) => openDialog({ type: 'import', into: folder }),
    settings: (folder) => openDialog({ type: 'settings', folder }),
  };
}
