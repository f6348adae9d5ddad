import { useState } from 'react';
import type { ProofExportFormat, ProofExportSource } from '../../common/records.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';

const FORMATS: readonly { value: ProofExportFormat; label: string; files: string }[] = [
  { value: 'proof', label: 'Proof file', files: 'one NAME.proof.json' },
  { value: 'vc', label: 'Wallet credential (VC)', files: 'one NAME.vc.json' },
  { value: 'both', label: 'Both', files: 'a NAME.proof.json and a NAME.vc.json' },
];
// The last format chosen, kept in this window's storage: the next export offers it again.
const FORMAT_KEY = 'proofdesk.export-format';

function lastFormat(): ProofExportFormat {
  try {
    const kept = window.localStorage.getItem(FORMAT_KEY);
    return FORMATS.find((f) => f.value === kept)?.value ?? 'proof';
  } catch {
    return 'proof'; // storage refused (e.g. disabled): the default
  }
}

function keepFormat(format: ProofExportFormat): void {
  try {
    window.localStorage.setItem(FORMAT_KEY, format);
  } catch {
    // Not kept: the next export offers the default again.
  }
}

/**
 * `Export proofs`: for each certificate of a job or of a selection, its proof file, its wallet
 * credential (a W3C Verifiable Credential) or both, into a folder, as a task in main (progress in
 * the status bar, a toast when done). The folder is typed, or chosen with the OS picker where
 * main has one (Electron); main checks it. The format chosen last is offered again.
 */
export function ExportDialog({ source, what, onClose }: { source: () => Promise<ProofExportSource>; what: string; onClose: () => void }) {
  const [folder, setFolder] = useState('');
  const [format, setFormat] = useState<ProofExportFormat>(lastFormat);
  const { busy, error, run } = useDialogTask();
  const canChoose = useShellStore((s) => s.status?.canChooseFolder === true);
  return (
    <Modal title="Export proofs" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            keepFormat(format);
            await window.proofdesk.jobsExportProofs({ source: await source(), folder: folder.trim(), format });
            onClose();
          });
        }}
      >
        <p className="muted">
          {what}, {FORMATS.find((f) => f.value === format)!.files} per certificate.
        </p>
        <fieldset className="field">
          <legend>Format</legend>
          {FORMATS.map((f) => (
            <label key={f.value}>
              <input type="radio" name="export-format" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} /> {f.label}
            </label>
          ))}
        </fieldset>
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
