import { useShellStore } from '../shell/shell-store.js';
import { t } from '../i18n/i18n-store.js';

/**
 * Puts text on the clipboard and says so in a toast (`what` names it: "Uid copied.").
 * The Electron window grants the page no clipboard permission, so when the Clipboard API
 * refuses, the text is copied the old way, from a hidden field.
 */
export async function copyText(text: string, what: string): Promise<boolean> {
  const { toast } = useShellStore.getState();
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    focused?.focus();
    if (!copied) {
      toast('error', t('shell.copy.refused', { what }));
      return false;
    }
  }
  toast('success', t('shell.copy.done', { what }));
  return true;
}
