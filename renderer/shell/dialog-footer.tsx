import { useState, type ReactNode } from 'react';
import type { ServiceError } from '../../common/errors.js';
import { toServiceError } from '../ipc-error.js';
import { Message } from '../i18n/use-t.js';
import { ErrorLine, type ShownError } from './error-line.js';

/** The error line of a dialog: announced (role alert), the id under Details; nothing when there is no error. */
export function DialogError({ error }: { error: ShownError | string | null }) {
  return <ErrorLine error={error} className="error-panel" />;
}

/** A form dialog's footer: `Cancel`, then the submit button named `label` (UI.md names these). */
export function DialogActions({ label, disabled, onCancel }: { label: string; disabled: boolean; onCancel: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={onCancel}>
        <Message id="common.cancel" />
      </button>
      <button type="submit" className="primary" disabled={disabled}>
        {label}
      </button>
    </div>
  );
}

/** A "This will … Continue?" step, announced: the question, `Back` to the form, `Confirm` to go ahead. */
export function ConfirmStep({ busy, onBack, onConfirm, children }: { busy: boolean; onBack: () => void; onConfirm: () => void; children: ReactNode }) {
  return (
    <div role="alert">
      <p>{children}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onBack}>
          <Message id="common.back" />
        </button>
        <button type="button" className="primary" disabled={busy} onClick={onConfirm} autoFocus>
          <Message id="common.confirm" />
        </button>
      </div>
    </div>
  );
}

/**
 * The busy flag and error line of a dialog that calls main: `run` clears the error, marks the
 * dialog busy while `task` runs, and on failure shows the error (its id under Details) and hands the
 * ServiceError to `onFailure` (e.g. to leave a confirmation step).
 */
export function useDialogTask() {
  const [error, setError] = useState<ShownError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (task: () => Promise<unknown>, onFailure?: (error: ServiceError) => void): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (e) {
      setError(toServiceError(e));
      onFailure?.(toServiceError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
