import { useT } from '../i18n/use-t.js';
import { useShellStore } from './shell-store.js';

/** Toasts for finished or failed background work; errors stay until dismissed. */
export function Toasts() {
  const toasts = useShellStore((s) => s.toasts);
  const dismiss = useShellStore((s) => s.dismissToast);
  const t = useT();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <span>{toast.text}</span>
          <button type="button" className="link-button" aria-label={t('shell.toast.dismiss')} onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
