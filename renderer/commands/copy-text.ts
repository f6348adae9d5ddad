import { t } from '../i18n/i18n-store.js';
import { useShellStore } from '../shell/shell-store.js';

/** What was copied: the toast names it in a sentence of its own (`copy.done` in the catalogue). */
export type CopiedThing = 'uid' | 'jobUid' | 'certificateUid' | 'fileName' | 'folderPath' | 'outputFolderPath' | 'diagnostics' | 'chainAccount' | 'clientId' | 'clientSecret';

/**
 * Puts text on the clipboard and says so in a toast (`what` names it: "The uid copied to the clipboard.").
 * The Electron window grants the page no clipboard permission, so when the Clipboard API
 * refuses, the text is copied the old way, from a hidden field.
 */
export async function copyText(text: string, what: CopiedThing): Promise<boolean> {
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
      toast('error', t('copy.failed', { what }));
      return false;
    }
  }
  toast('success', t('copy.done', { what }));
  return true;
}
