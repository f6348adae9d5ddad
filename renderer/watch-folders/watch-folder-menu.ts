import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';

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
        { key: 'pause', label: folder.state === 'paused' ? 'Resume' : folder.state === 'stopped' ? 'Watch again' : 'Pause', run: actions.togglePaused },
        { key: 'failed', label: 'Failed files', run: actions.failedFiles },
        { key: 'open-output', label: 'Open output folder', run: actions.openOutput },
      ],
    },
    {
      entries: [
        { key: 'copy-path', label: 'Copy folder path', run: () => void copyText(folder.path, 'folderPath') },
        { key: 'copy-output', label: 'Copy output folder path', run: () => void copyText(folder.outDir, 'outputFolderPath') },
      ],
    },
    { entries: [{ key: 'remove', label: 'Remove…', run: actions.remove }] },
  ];
}
