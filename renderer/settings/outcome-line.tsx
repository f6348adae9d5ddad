import type { Outcome } from './settings-store.js';

/** What a form's last action did: a status line, or an alert for an error. */
export function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) return null;
  return outcome.tone === 'error' ? (
    <div className="error-panel" role="alert">
      {outcome.text}
    </div>
  ) : (
    <p className="settings-success" role="status">
      {outcome.text}
    </p>
  );
}
