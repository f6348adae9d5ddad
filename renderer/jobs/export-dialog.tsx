import { useState } from 'react';
import type { ProofExportFormat, ProofExportSource } from '../../common/records.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { keep, readKept } from '../shell/kept.js';
import { useShellStore } from '../shell/shell-store.js';
import { useT } from '../i18n/use-t.js';

const FORMATS: readonly ProofExportFormat[] = ['proof', 'vc', 'both'];
// The last format chosen, kept in this window's storage: the next export offers it again.
const FORMAT_KEY = 'proofdesk.export-format';

function lastFormat(): ProofExportFormat {
  const kept = readKept(FORMAT_KEY);
  return FORMATS.find((f) => f === kept) ?? 'proof';
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
  const t = useT();
  return (
    <Modal title={t('exportProofs.title')} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            keep(FORMAT_KEY, format);
            await window.proofdesk.jobsExportProofs({ source: await source(), folder: folder.trim(), format });
            onClose();
          });
        }}
      >
        <p className="muted">
          {t('exportProofs.what', { what, format })}
        </p>
        <fieldset className="field">
          <legend>{t('exportProofs.format')}</legend>
          {FORMATS.map((f) => (
            <label key={f}>
              <input type="radio" name="export-format" value={f} checked={format === f} onChange={() => setFormat(f)} /> {t('exportProofs.format.option', { format: f })}
            </label>
          ))}
        </fieldset>
        <label className="field">
          {t('exportProofs.folder')}
          <input aria-label={t('exportProofs.folder')} value={folder} onChange={(e) => setFolder(e.target.value)} placeholder={t('exportProofs.folderPlaceholder')} autoFocus />
        </label>
        {canChoose && (
          <button type="button" onClick={() => void window.proofdesk.appChooseFolder(t('exportProofs.chooseTitle')).then((chosen) => chosen && setFolder(chosen))}>
            {t('exportProofs.choose')}
          </button>
        )}
        <DialogError error={error} />
        <DialogActions label={t('exportProofs.submit')} disabled={busy || folder.trim() === ''} onCancel={onClose} />
      </form>
    </Modal>
  );
}
