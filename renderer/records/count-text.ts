import { t } from '../i18n/i18n-store.js';

/** "50,000 credentials", "1 credential", in the window's language. */
export function credentials(count: number): string {
  return t('records.count', { count });
}

/** Over this many records, a bulk change asks once more, naming the count. */
export const CONFIRM_OVER = 100;
