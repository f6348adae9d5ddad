import type { VerifyRow } from '../../common/ipc/verify.js';
import { commandEntry } from '../commands/command-entry.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { t } from '../i18n/i18n-store.js';
import { useVerifyStore } from './verify-store.js';

/** A verification result's context menu: open its six steps, copy what identifies it, export the list. */
export function verifyRowMenu(row: VerifyRow): MenuGroup[] {
  return [
    {
      entries: [
        { key: 'open', label: t('verify.menu.open'), run: () => void useVerifyStore.getState().open(row.index) },
        { key: 'copy-certificate', label: t('verify.menu.copyCertificate'), disabled: row.certificate_uid === '', run: () => void copyText(row.certificate_uid, 'certificateUid') },
        { key: 'copy-name', label: t('verify.menu.copyName'), run: () => void copyText(row.name, 'fileName') },
      ],
    },
    {
      entries: [
        commandEntry('file.exportList', t('verify.reportCsv'), () => void useVerifyStore.getState().report('csv')),
        { key: 'report-html', label: t('verify.reportHtml'), run: () => void useVerifyStore.getState().report('html') },
      ],
    },
  ];
}
