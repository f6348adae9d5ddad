import { useState } from 'react';
import type { ProofExportSource } from '../../common/records.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';

/**
 * `Export proofs`: one NAME.proof.json per certificate of a job or of a selection into a
 * folder, as a task in main (progress in the status bar, a toast when done). The folder is
 * typed, or chosen with the OS picker where main has one (Electron); main checks it.
 */
export function ExportDialog({ source, what, onClose }: { source: () => Promise<ProofExportSource>; what: string; onClose: () => void }) {
  const [folder, setFolder] = useState('');
  const { busy, error, run } = useDialogTask();
  const canChoose = useShellStore((s) => s.status?.canChooseFolder === true);
  return (
    <Modal title="Export proofs" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await window.proofdesk.jobsExportProofs({ source: await source(), folder: folder.trim() });
            onClose();
          });
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
        <DialogError error={error} />
        <DialogActions label="Export" disabled={busy || folder.trim() === ''} onCancel={onClose} />
      </form>
    </Modal>
  );
}
