import { useT } from '../i18n/use-t.js';
import { ErrorDetails } from './error-line.js';
import { useShellStore, type Toast } from './shell-store.js';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useShellStore((s) => s.dismissToast);
  const act = useShellStore((s) => s.actOnToast);
  const t = useT();
  return (
    // An error toast is an alert of its own: added to the page, it is announced at once.
    <div className={`toast toast-${toast.tone}`} data-testid="toast" {...(toast.tone === 'error' ? { role: 'alert' } : {})}>
      <div className="toast-body">
        <span>{toast.text}</span>
        {toast.error && <ErrorDetails technical={toast.error.message} id={toast.error.id} />}
      </div>
      {toast.action && (
        <button type="button" className="toast-action" onClick={() => act(toast.id)}>
          {toast.action.label}
        </button>
      )}
      <button type="button" className="link-button" aria-label={t('shell.toast.dismiss')} onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Toasts for finished or failed background work. Successes and notes are announced politely
 * (a status region), each failure at once (an alert of its own). A toast may carry one action
 * (Undo, Review, Show in folder); errors and toasts with an action stay until dismissed or acted on.
 */
export function Toasts() {
  const toasts = useShellStore((s) => s.toasts);
  const t = useT();
  return (
    <div className="toasts" aria-label={t('shell.toast.label')} role="region">
      <div role="status" aria-live="polite" className="toast-stack">
        {toasts.filter((toast) => toast.tone !== 'error').map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
      <div className="toast-stack">
        {toasts.filter((toast) => toast.tone === 'error').map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </div>
  );
}
