import { useCallback } from 'react';
import { FilePicker } from '../shell/file-picker.js';
import { useWindowDrop } from '../shell/window-drop.js';
import { useStagingStore } from './staging-store.js';
import { useT } from '../i18n/use-t.js';

/**
 * The window takes a drop of files or folders anywhere; region `Drop files to add` shows where,
 * and lights up while files are dragged over the window.
 */
export function DropZone() {
  const addDrop = useStagingStore((s) => s.addDrop);
  const dragging = useWindowDrop(useCallback((data: DataTransfer) => void addDrop(data), [addDrop]));
  const t = useT();

  return (
    <div role="region" aria-label={t('staging.drop.region')} className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}>
      {dragging ? t('staging.drop.active') : t('staging.drop.idle')}
    </div>
  );
}

/** `Add files` (a file dialog) and `Add folder` (a folder dialog), both into staging; also from the File menu. */
export function AddFilesButtons() {
  const addFiles = useStagingStore((s) => s.addFiles);
  const busy = useStagingStore((s) => s.phase !== 'idle');
  const t = useT();
  return (
    <FilePicker
      names={{ files: t('staging.addFiles'), folder: t('staging.addFolder'), filesInput: t('staging.filesInput'), folderInput: t('staging.folderInput') }}
      onFiles={(files) => void addFiles(files)}
      disabled={busy}
      commands={{ files: 'file.addFiles', folder: 'file.addFolder' }}
    />
  );
}
