import { useCallback, useEffect, useRef } from 'react';
import { useWindowDrop } from '../shell/window-drop.js';
import { commandHint } from '../commands/command-hint.js';
import { useCommandHandler } from '../commands/command-registry.js';
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

/** `Add files` (a file dialog) and `Add folder` (a folder dialog), both into staging. */
export function AddFilesButtons() {
  const addFiles = useStagingStore((s) => s.addFiles);
  const busy = useStagingStore((s) => s.phase !== 'idle');
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const t = useT();
  const take = (input: HTMLInputElement | null) => {
    const files = [...(input?.files ?? [])];
    if (input) input.value = '';
    if (files.length > 0) void addFiles(files);
  };
  useEffect(() => {
    // React has no prop for it: the folder picker is a file input with webkitdirectory.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  useCommandHandler('file.addFiles', () => {
    if (!busy) filesInput.current?.click();
  });
  useCommandHandler('file.addFolder', () => {
    if (!busy) folderInput.current?.click();
  });
  return (
    <>
      <button type="button" onClick={() => filesInput.current?.click()} disabled={busy} {...commandHint('file.addFiles')}>
        {t('staging.addFiles')}
      </button>
      <button type="button" onClick={() => folderInput.current?.click()} disabled={busy} {...commandHint('file.addFolder')}>
        {t('staging.addFolder')}
      </button>
      <input ref={filesInput} type="file" multiple hidden aria-label={t('staging.filesInput')} onChange={(e) => take(e.target)} />
      <input ref={folderInput} type="file" hidden aria-label={t('staging.folderInput')} onChange={(e) => take(e.target)} />
    </>
  );
}
