import { useState } from 'react';
import type { WatchFolderInput } from '../../common/ipc/watch-folders.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { useWatchFoldersStore } from './watch-folders-store.js';
import { t as translate } from '../i18n/i18n-store.js';
import { useT } from '../i18n/use-t.js';

/** Parses the metadata template field: empty, or a JSON object. */
function parseTemplate(text: string): Record<string, unknown> | undefined | string {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // told below
  }
  return translate('watch.form.badTemplate');
}

/**
 * `Add watch folder`: the folder (the OS picker in the desktop app, a typed path in the browser)
 * and what its files become: engine, tags, metadata template, output folder, subfolders,
 * duplicates. Main checks it all and starts watching before the folder is saved.
 */
export function AddWatchFolderDialog({ onClose }: { onClose: () => void }) {
  const canPick = useWatchFoldersStore((s) => s.canPickFolder);
  const engines = useShellStore((s) => s.status?.engines ?? []);
  const [path, setPath] = useState('');
  const [engine, setEngine] = useState('local');
  const [tags, setTags] = useState('');
  const [template, setTemplate] = useState('');
  const [outDir, setOutDir] = useState('');
  const [recursive, setRecursive] = useState(true);
  const [allowDuplicates, setAllowDuplicates] = useState(false);
  const { busy, error, setError, run } = useDialogTask();
  const engineIds = engines.length > 0 ? engines.map((e) => e.id) : ['local'];
  const t = useT();

  const submit = () => {
    const metadata = parseTemplate(template);
    if (typeof metadata === 'string') {
      setError(metadata);
      return;
    }
    const input: WatchFolderInput = {
      path: path.trim(),
      engine,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      recursive,
      allowDuplicates,
      ...(metadata ? { metadata } : {}),
      ...(outDir.trim() ? { outDir: outDir.trim() } : {}),
    };
    void run(async () => {
      await useWatchFoldersStore.getState().add(input);
      onClose();
    });
  };

  return (
    <Modal title={t('watch.form.title')} onClose={onClose}>
      <form
        className="watch-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="field">
          {t('watch.form.folder')}
          <span className="watch-path">
            <input value={path} onChange={(e) => setPath(e.target.value)} placeholder={t('watch.form.folderPlaceholder')} autoFocus />
            {canPick && (
              <button type="button" onClick={() => void window.proofdesk.watchFoldersPickFolder().then((p) => p && setPath(p))}>
                {t('watch.form.choose')}
              </button>
            )}
          </span>
        </label>
        <label className="field">
          {t('watch.form.engine')}
          <select value={engine} onChange={(e) => setEngine(e.target.value)}>
            {engineIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('watch.form.tags')}
          <input value={tags} onChange={(e) => setTags(e.target.value)} placeholder={t('watch.form.tagsPlaceholder')} />
        </label>
        <label className="field">
          {t('watch.form.template')}
          <textarea rows={3} value={template} onChange={(e) => setTemplate(e.target.value)} placeholder={t('watch.form.templatePlaceholder')} />
        </label>
        <label className="field">
          {t('watch.form.outDir')}
          <input value={outDir} onChange={(e) => setOutDir(e.target.value)} placeholder={t('watch.form.outDirPlaceholder')} />
        </label>
        <label className="check">
          <input type="checkbox" checked={recursive} onChange={(e) => setRecursive(e.target.checked)} /> {t('watch.form.recursive')}
        </label>
        <label className="check">
          <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> {t('watch.form.duplicates')}
        </label>
        <DialogError error={error} />
        <DialogActions label={t('watch.form.add')} disabled={busy || path.trim() === ''} onCancel={onClose} />
      </form>
    </Modal>
  );
}
