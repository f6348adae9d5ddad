import { useState } from 'react';
import type { WatchFolderInput } from '../../common/ipc/watch-folders.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { useWatchFoldersStore } from './watch-folders-store.js';
import { useT } from '../i18n/use-t.js';
import { MetadataGrid } from '../staging/metadata-grid.js';
import { chainName } from '../format/chain-display.js';
import { parseTagInput } from '../records/tag-dialog.js';

/**
 * `Add watch folder`: the folder (the OS picker in the desktop app, a typed path in the browser)
 * and what its files become: engine, tags, metadata template, output folder, subfolders,
 * duplicates. Main checks it all and starts watching before the folder is saved.
 */
export function AddWatchFolderDialog({ onClose }: { onClose: () => void }) {
  const canPick = useShellStore((s) => s.status?.canChooseFolder === true);
  const engines = useShellStore((s) => s.status?.engines ?? []);
  const [path, setPath] = useState('');
  const [engine, setEngine] = useState('local');
  const [tags, setTags] = useState('');
  const [template, setTemplate] = useState<Record<string, unknown>>({});
  const [outDir, setOutDir] = useState('');
  const [recursive, setRecursive] = useState(true);
  const [allowDuplicates, setAllowDuplicates] = useState(false);
  const { busy, error, run } = useDialogTask();
  const engineChoices = engines.length > 0 ? engines : [{ id: 'local', chain_id: null }];
  const t = useT();

  const submit = () => {
    const metadata = Object.keys(template).length > 0 ? template : undefined;
    const input: WatchFolderInput = {
      path: path.trim(),
      engine,
      tags: parseTagInput(tags),
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
              <button type="button" onClick={() => void window.proofdesk.appChooseFolder(t('watch.form.chooseTitle')).then((p) => p && setPath(p))}>
                {t('watch.form.choose')}
              </button>
            )}
          </span>
        </label>
        <label className="field">
          {t('watch.form.engine')}
          <select value={engine} onChange={(e) => setEngine(e.target.value)}>
            {engineChoices.map((e) => (
              <option key={e.id} value={e.id}>
                {chainName(e)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('watch.form.tags')}
          <input value={tags} onChange={(e) => setTags(e.target.value)} placeholder={t('watch.form.tagsPlaceholder')} />
        </label>
        <fieldset className="field watch-template">
          <legend>{t('watch.form.template')}</legend>
          <MetadataGrid owner={t('watch.form.templateOwner')} metadata={template} onChange={setTemplate} />
        </fieldset>
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
