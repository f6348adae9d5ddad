import type { RecordRow } from '../../common/records.js';
import { commandEntry } from '../commands/command-entry.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { openDetail } from '../detail/detail-store.js';
import type { TagDialogMode } from './tag-dialog.js';
import { t } from '../i18n/i18n-store.js';
import { commandTitle } from '../commands/command-title.js';

/** What the Records view opens for the selection (its dialogs). */
export interface RecordMenuActions {
  tags(mode: TagDialogMode): void;
  schedule(): void;
  unschedule(): void;
  exportProofs(): void;
}

/**
 * A credential row's context menu: open it, copy its uid, and the bulk actions on the
 * selection (the row clicked is in it: a right click selects it first).
 */
export function recordMenu(row: RecordRow, actions: RecordMenuActions): MenuGroup[] {
  return [
    {
      entries: [
        { key: 'open', label: t('records.menu.open'), run: () => void openDetail(row.uid) },
        { key: 'copy-uid', label: t('records.menu.copyUid'), run: () => void copyText(row.uid, 'uid') },
      ],
    },
    {
      entries: [
        commandEntry('edit.addTags', commandTitle('edit.addTags'), () => actions.tags('add')),
        { key: 'replace-tags', label: t('records.menu.replaceTags'), run: () => actions.tags('replace') },
        { key: 'remove-tag', label: t('records.menu.removeTag'), run: () => actions.tags('remove') },
        commandEntry('edit.schedule', commandTitle('edit.schedule'), actions.schedule),
        { key: 'unschedule', label: t('records.menu.unschedule'), run: actions.unschedule },
      ],
    },
    { entries: [{ key: 'export-proofs', label: t('records.menu.exportProofs'), run: actions.exportProofs }] },
  ];
}
