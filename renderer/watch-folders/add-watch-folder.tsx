import { useState } from 'react';
import type { WatchFolderInput } from '../../common/ipc/watch-folders.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { useWatchFoldersStore } from './watch-folders-store.js';

/** Parses the metadata template field: empty, or a JSON object. */
function parseTemplate(text: string): Record<string, unknown> | undefined | string {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // told below
  }
  return 'The metadata template must be a JSON object, like {"course": "CS 2026"}.';
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
        .map((t) => t.trim())
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
    <Modal title="Add watch folder" onClose={onClose}>
      <form
        className="watch-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="field">
          Folder to watch
          <span className="watch-path">
            <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/diplomas-inbox" autoFocus />
            {canPick && (
              <button type="button" onClick={() => void window.proofdesk.watchFoldersPickFolder().then((p) => p && setPath(p))}>
                Choose…
              </button>
            )}
          </span>
        </label>
        <label className="field">
          Engine
          <select value={engine} onChange={(e) => setEngine(e.target.value)}>
            {engineIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Tags (comma-separated)
          <input value={tags} onChange={(e) => setTags(e.target.value)} placeholder="cs2026, diploma" />
        </label>
        <label className="field">
          Metadata template (JSON, merged into every credential)
          <textarea rows={3} value={template} onChange={(e) => setTemplate(e.target.value)} placeholder='{"course": "CS 2026"}' />
        </label>
        <label className="field">
          Output folder for proofs (default: the folder’s proofs/)
          <input value={outDir} onChange={(e) => setOutDir(e.target.value)} placeholder="/home/me/proofs" />
        </label>
        <label className="check">
          <input type="checkbox" checked={recursive} onChange={(e) => setRecursive(e.target.checked)} /> Include subfolders
        </label>
        <label className="check">
          <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> Issue identical files again (otherwise they go to duplicate/)
        </label>
        <DialogError error={error} />
        <DialogActions label="Add" disabled={busy || path.trim() === ''} onCancel={onClose} />
      </form>
    </Modal>
  );
}
