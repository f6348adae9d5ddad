import type { RecordRow } from '../../common/records.js';
import { commandEntry } from '../commands/command-entry.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { openDetail } from '../detail/detail-store.js';
import type { TagDialogMode } from './tag-dialog.js';

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
        { key: 'open', label: 'Open', run: () => void openDetail(row.uid) },
        { key: 'copy-uid', label: 'Copy uid', run: () => void copyText(row.uid, 'uid') },
      ],
    },
    {
      entries: [
        commandEntry('edit.addTags', 'Add tags…', () => actions.tags('add')),
        { key: 'replace-tags', label: 'Replace tags…', run: () => actions.tags('replace') },
        { key: 'remove-tag', label: 'Remove tag…', run: () => actions.tags('remove') },
        commandEntry('edit.schedule', 'Schedule…', actions.schedule),
        { key: 'unschedule', label: 'Unschedule…', run: actions.unschedule },
      ],
    },
    { entries: [{ key: 'export-proofs', label: 'Export proofs…', run: actions.exportProofs }] },
  ];
}
