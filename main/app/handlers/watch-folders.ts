/**
 * Handlers of the Watch folders view's slice (common/ipc/watch-folders.ts). One manager per app
 * context: it watches the saved folders again as soon as the handlers exist (app start) and
 * sends each folder's live counts as `watch-folder` events.
 */
import { ServiceError } from '../../../common/errors.js';
import type { WATCH_FOLDERS_IPC } from '../../../common/ipc/watch-folders.js';
import { onJobEnds } from '../../engine/index.js';
import { WatchFolderManager } from '../../workspace/watch-folders/watch-folder-manager.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';
import { watchFolderDesktop } from './watch-folders-desktop.js';

const managers = new WeakMap<AppContext, WatchFolderManager>();
const running = new Set<WatchFolderManager>();

/** The context's manager, made (and its saved folders started) on first use; null without the embedded engine. */
export function watchFolderManagerOf(ctx: AppContext): WatchFolderManager | null {
  const engine = ctx.engine;
  if (!engine) return null;
  let manager = managers.get(ctx);
  if (!manager) {
    manager = new WatchFolderManager({
      dataDir: engine.dataDir,
      serviceFor: (partnerId) => engine.serviceFor(partnerId),
      activePartner: () => ctx.partner()?.id ?? null,
      onChange: (folder) => ctx.events.emit({ type: 'watch-folder', folder }),
      jobEnds: (partnerId, listener) => onJobEnds(engine.events, partnerId, listener),
    });
    managers.set(ctx, manager);
    running.add(manager);
    void manager.startSaved();
  }
  return manager;
}

/** Stops every manager's ingesters (app exit): work under way is finished or journaled, claims given up. */
export async function stopWatchFolders(): Promise<void> {
  const all = [...running];
  running.clear();
  await Promise.allSettled(all.map((m) => m.stopAll()));
}

export function createWatchFoldersHandlers(ctx: AppContext): HandlersOf<typeof WATCH_FOLDERS_IPC> {
  const manager = (): WatchFolderManager => {
    const found = watchFolderManagerOf(ctx);
    if (!found) throw new ServiceError('not_found', 'Watch folders need the embedded engine; with a remote service, run `proofdesk watch` on the command line instead.');
    return found;
  };
  if (ctx.engine) watchFolderManagerOf(ctx);
  return {
    'watchFolders:list': async () => ({ folders: ctx.engine ? manager().list() : [] }),
    'watchFolders:add': async (input) => manager().add(input),
    'watchFolders:remove': async (id) => {
      await manager().remove(id);
      return null;
    },
    'watchFolders:pause': async (id) => manager().pause(id),
    'watchFolders:resume': async (id) => manager().resume(id),
    'watchFolders:failed': async (id) => manager().failed(id),
    'watchFolders:retry': async (id, file) => manager().retry(id, file),
    'watchFolders:openOutput': async (id) => {
      const path = manager().outDirOf(id);
      const desktop = watchFolderDesktop();
      if (!desktop) return { opened: false, path };
      const problem = await desktop.openPath(path);
      if (problem) throw new ServiceError('missing_file', `The output folder ${path} cannot be opened (${problem}); files appear there once the first proof is written.`);
      return { opened: true, path };
    },
  };
}
