import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { t } from '../i18n/i18n-store.js';

/** What a watch folder's card does (its buttons). */
export interface WatchFolderActions {
  togglePaused(): void;
  failedFiles(): void;
  openOutput(): void;
  remove(): void;
}

/** A watch folder's context menu: the card's buttons, and copying its paths. */
export function watchFolderMenu(folder: WatchFolderStatus, actions: WatchFolderActions): MenuGroup[] {
  return [
    {
      entries: [
        { key: 'pause', label: t('watch.toggle', { state: folder.state }), run: actions.togglePaused },
        { key: 'failed', label: t('watch.failedFiles'), run: actions.failedFiles },
        { key: 'open-output', label: t('watch.openOutput'), run: actions.openOutput },
      ],
    },
    {
      entries: [
        { key: 'copy-path', label: t('watch.menu.copyPath'), run: () => void copyText(folder.path, 'folderPath') },
        { key: 'copy-output', label: t('watch.menu.copyOutput'), run: () => void copyText(folder.outDir, 'outputFolderPath') },
      ],
    },
    { entries: [{ key: 'remove', label: t('watch.menu.remove'), run: actions.remove }] },
  ];
}
