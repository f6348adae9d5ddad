import { ErrorLine } from '../shell/error-line.js';
import type { Outcome } from './settings-store.js';

/** What a form's last action did: a status line, or an alert for an error (its id under Details). */
export function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) return null;
  return outcome.tone === 'error' ? (
    <ErrorLine error={outcome.error ?? outcome.text} className="error-panel" />
  ) : (
    <p className="settings-success" role="status">
      {outcome.text}
    </p>
  );
}
