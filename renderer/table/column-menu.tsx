/**
 * Choosing a table's columns: the column menu of one header (right click or Shift+F10 on it),
 * the `Columns` button of a view's toolbar, and the `Columns` dialog it opens (every column,
 * shown or hidden, pinned, in order; metadata keys among them), all over ./column-store.ts.
 */
import { useId } from 'react';
import type { MenuGroup } from '../commands/popup-menu.js';
import { Modal } from '../shell/modal.js';
import { useT } from '../i18n/use-t.js';
import { t as translate } from '../i18n/i18n-store.js';
import { isPinned, isShown, moveColumn, orderedColumns, setPinned, setShown, setWidth, type ColumnState } from './column-state.js';
import { useColumnState, useColumnStore } from './column-store.js';
import type { TableColumn } from './table-column.js';
import './columns.css';
import { ToolbarButton } from './toolbar-button.js';

/** The column menu of one column: move, pin, hide, width, the `Columns` dialog and a reset. */
export function columnMenuGroups<T>(view: string, columns: readonly TableColumn<T>[], id: string): MenuGroup[] {
  const store = useColumnStore.getState();
  const state = store.stateOf(view);
  const column = columns.find((c) => c.id === id);
  if (!column) return [];
  const update = (change: (s: ColumnState) => ColumnState) => store.update(view, change);
  const pinned = isPinned(state, column);
  return [
    {
      entries: [
        {
          key: 'left',
          label: translate('table.columns.moveLeft'),
          disabled: moveColumn(columns, state, id, -1) === state,
          run: () => update((s) => moveColumn(columns, s, id, -1)),
        },
        {
          key: 'right',
          label: translate('table.columns.moveRight'),
          disabled: moveColumn(columns, state, id, 1) === state,
          run: () => update((s) => moveColumn(columns, s, id, 1)),
        },
        {
          key: 'pin',
          label: translate(pinned ? 'table.columns.unpin' : 'table.columns.pin'),
          disabled: column.identifying === true,
          run: () => update((s) => setPinned(s, column, !pinned)),
        },
        { key: 'hide', label: translate('table.columns.hide'), disabled: column.identifying === true, run: () => update((s) => setShown(s, column, false)) },
        {
          key: 'width',
          label: translate('table.columns.resetWidth'),
          disabled: state.widths[id] === undefined,
          run: () => update((s) => setWidth(s, id, null)),
        },
      ],
    },
    {
      entries: [
        { key: 'dialog', label: translate('table.columns.choose'), run: () => store.openDialog(view) },
        { key: 'reset', label: translate('table.columns.reset'), run: () => store.reset(view) },
      ],
    },
  ];
}

/** The `Columns` button of a view's toolbar: opens the view's `Columns` dialog. */
export function ColumnsButton({ view }: { view: string }) {
  const t = useT();
  return (
    <ToolbarButton icon="columns" label={t('table.columns.button')} aria-haspopup="dialog" onClick={() => useColumnStore.getState().openDialog(view)} />
  );
}

/**
 * The `Columns` dialog: one line per column with `Show <name>` and `Pin <name>` checkboxes and
 * `Move <name> up` / `down` buttons; columns of a group (the metadata keys) in a list of their own.
 */
export function ColumnsDialog<T>({ view, columns, note }: { view: string; columns: readonly TableColumn<T>[]; note?: string | undefined }) {
  const t = useT();
  const state = useColumnState(view);
  const { update, reset, closeDialog } = useColumnStore.getState();
  const ordered = orderedColumns(columns, state);
  const groups = [...new Set(ordered.map((c) => c.group ?? ''))];
  return (
    <Modal title={t('table.columns.title')} onClose={closeDialog}>
      <div className="columns-dialog">
        {groups.map((group) => (
          <ColumnList
            key={group}
            heading={group || null}
            hint={ordered.find((c) => (c.group ?? '') === group)?.groupHint ?? null}
            columns={ordered.filter((c) => (c.group ?? '') === group)}
            all={columns}
            state={state}
            update={(change) => update(view, change)}
          />
        ))}
        {note && <p className="muted">{note}</p>}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={() => reset(view)}>
          {t('table.columns.reset')}
        </button>
        <button type="button" className="primary" onClick={closeDialog}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

function ColumnList<T>({
  heading,
  hint,
  columns,
  all,
  state,
  update,
}: {
  heading: string | null;
  hint: string | null;
  columns: TableColumn<T>[];
  all: readonly TableColumn<T>[];
  state: ColumnState;
  update: (change: (s: ColumnState) => ColumnState) => void;
}) {
  const t = useT();
  const headingId = useId();
  return (
    <section aria-labelledby={heading ? headingId : undefined}>
      {heading && <h3 id={headingId}>{heading}</h3>}
      {hint && <p className="muted">{hint}</p>}
      <ul className="columns-list" aria-label={heading ?? t('table.columns.title')}>
        {columns.map((column) => {
          const shown = isShown(state, column);
          const pinned = isPinned(state, column);
          return (
            <li key={column.id}>
              <label className="columns-show">
                <input
                  type="checkbox"
                  checked={shown}
                  disabled={column.identifying}
                  aria-label={t('table.columns.show', { column: column.header })}
                  onChange={(event) => update((s) => setShown(s, column, event.target.checked))}
                />
                <span>{column.header}</span>
                {column.hint && <span className="muted"> {column.hint}</span>}
              </label>
              <label className="columns-pin">
                <input
                  type="checkbox"
                  checked={pinned}
                  disabled={column.identifying || !shown}
                  aria-label={t('table.columns.pinNamed', { column: column.header })}
                  onChange={(event) => update((s) => setPinned(s, column, event.target.checked))}
                />
                <span aria-hidden="true">{t('table.columns.pinShort')}</span>
              </label>
              <button
                type="button"
                aria-label={t('table.columns.moveUp', { column: column.header })}
                // aria-disabled, not disabled: focus stays on the button when the column reaches the end.
                aria-disabled={moveColumn(all, state, column.id, -1) === state}
                onClick={() => update((s) => moveColumn(all, s, column.id, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={t('table.columns.moveDown', { column: column.header })}
                // aria-disabled, not disabled: focus stays on the button when the column reaches the end.
                aria-disabled={moveColumn(all, state, column.id, 1) === state}
                onClick={() => update((s) => moveColumn(all, s, column.id, 1))}
              >
                ↓
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
