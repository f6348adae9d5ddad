import type { VerifyRow } from '../../common/ipc/verify.js';
import { commandEntry } from '../commands/command-entry.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { useVerifyStore } from './verify-store.js';

/** A verification result's context menu: open its six steps, copy what identifies it, export the list. */
export function verifyRowMenu(row: VerifyRow): MenuGroup[] {
  return [
    {
      entries: [
        { key: 'open', label: 'Open', run: () => void useVerifyStore.getState().open(row.index) },
        { key: 'copy-certificate', label: 'Copy certificate uid', disabled: row.certificate_uid === '', run: () => void copyText(row.certificate_uid, 'The certificate uid') },
        { key: 'copy-name', label: 'Copy proof file name', run: () => void copyText(row.name, 'The file name') },
      ],
    },
    {
      entries: [
        commandEntry('file.exportList', 'Download report (CSV)', () => void useVerifyStore.getState().report('csv')),
        { key: 'report-html', label: 'Download printable report (HTML)', run: () => void useVerifyStore.getState().report('html') },
      ],
    },
  ];
}
