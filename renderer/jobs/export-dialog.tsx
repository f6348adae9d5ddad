import { useState } from 'react';
import type { ProofExportSource } from '../../common/records.js';
import { toServiceError } from '../ipc-error.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';

/**
 * `Export proofs`: one NAME.proof.json per certificate of a job or of a selection into a
 * folder, as a task in main (progress in the status bar, a toast when done). The folder is
 * typed, or chosen with the OS picker where main has one (Electron); main checks it.
 */
export function ExportDialog({ source, what, onClose }: { source: () => Promise<ProofExportSource>; what: string; onClose: () => void }) {
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const canChoose = useShellStore((s) => s.status?.canChooseFolder === true);
  return (
    <Modal title="Export proofs" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          source()
            .then((s) => window.proofdesk.jobsExportProofs({ source: s, folder: folder.trim() }))
            .then(onClose, (e: unknown) => {
              const { id, message } = toServiceError(e);
              setError(`${message} (${id})`);
            })
            .finally(() => setBusy(false));
        }}
      >
        <p className="muted">{what}, one NAME.proof.json per certificate.</p>
        <label className="field">
          Folder
          <input aria-label="Folder" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/home/me/proofs" autoFocus />
        </label>
        {canChoose && (
          <button type="button" onClick={() => void window.proofdesk.appChooseFolder('Export the proofs into').then((chosen) => chosen && setFolder(chosen))}>
            Choose folder…
          </button>
        )}
        {error && (
          <p className="error-panel" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || folder.trim() === ''}>
            Export
          </button>
        </div>
      </form>
    </Modal>
  );
}
