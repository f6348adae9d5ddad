import { create } from 'zustand';
import type { WatchFailedFile, WatchFolderInput, WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { guarded } from '../ipc-error.js';
import type { ShownError } from '../shell/error-line.js';

export interface WatchFoldersStore {
  folders: WatchFolderStatus[];
  loaded: boolean;
  error: ShownError | null;
  /** The folder whose failed files are open, and those files. */
  failedOf: string | null;
  failed: WatchFailedFile[];
  load(): Promise<void>;
  /** A `watch-folder` event: the folder's new counts and state. */
  update(folder: WatchFolderStatus): void;
  add(input: WatchFolderInput): Promise<void>;
  remove(id: string): Promise<void>;
  setPaused(id: string, paused: boolean): Promise<void>;
  showFailed(id: string | null): Promise<void>;
  retry(file: WatchFailedFile): Promise<string>;
}

/** The Watch folders view's state: the folders with their live counts, and the open failed-files list. */
export const useWatchFoldersStore = create<WatchFoldersStore>()((set, get) => {
  const replace = (folder: WatchFolderStatus) => {
    const folders = get().folders;
    const at = folders.findIndex((f) => f.id === folder.id);
    set({ folders: at < 0 ? [...folders, folder] : folders.map((f, i) => (i === at ? folder : f)) });
  };
  const guard = (work: () => Promise<unknown>) => guarded(work, (error) => set({ error }));
  return {
    folders: [],
    loaded: false,
    error: null,
    failedOf: null,
    failed: [],
    load: () =>
      guarded(
        async () => set({ folders: (await window.proofdesk.watchFoldersList()).folders, loaded: true, error: null }),
        (error) => set({ error, loaded: true }),
      ),
    update(folder) {
      // Events for a folder removed meanwhile are dropped; a new folder's arrive after add() put it in.
      if (get().folders.some((f) => f.id === folder.id)) replace(folder);
      // The failed files change with the failed count: refresh the open list.
      if (get().failedOf === folder.id) void get().showFailed(folder.id);
    },
    async add(input) {
      // Errors go to the caller (the add dialog shows them beside the fields).
      replace(await window.proofdesk.watchFoldersAdd(input));
    },
    remove: (id) =>
      guard(async () => {
        await window.proofdesk.watchFoldersRemove(id);
        set({ folders: get().folders.filter((f) => f.id !== id), ...(get().failedOf === id ? { failedOf: null, failed: [] } : {}) });
      }),
    setPaused: (id, paused) => guard(async () => replace(await (paused ? window.proofdesk.watchFoldersPause(id) : window.proofdesk.watchFoldersResume(id)))),
    async showFailed(id) {
      if (id === null) return set({ failedOf: null, failed: [] });
      await guard(async () => set({ failedOf: id, failed: await window.proofdesk.watchFoldersFailed(id) }));
    },
    async retry(file) {
      const id = get().failedOf;
      if (!id) return '';
      const back = await window.proofdesk.watchFoldersRetry(id, { path: file.path, failedPath: file.failedPath });
      set({ failed: get().failed.filter((f) => f !== file) });
      return back;
    },
  };
});
