import { useEffect, useState } from 'react';
import type { TagEdit } from '../../common/records.js';
import { ConfirmStep, DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { CONFIRM_OVER } from './count-text.js';
import type { MessageId } from '../i18n/i18n-store.js';
import { Message, strong, useT } from '../i18n/use-t.js';
import { useRecordsStore, useSelectedCount } from './records-store.js';

export type TagDialogMode = TagEdit['mode'];

const TITLES: Record<TagDialogMode, MessageId> = { add: 'records.toolbar.addTags', replace: 'records.toolbar.replaceTags', remove: 'records.toolbar.removeTag' };

/** Splits "a, b ,c" into tags; empty entries are dropped. */
export function parseTagInput(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * `Add tags`, `Replace tags` and `Remove tag` on the selection: all or nothing in main, in one
 * step: the toast that says what changed offers Undo. Where there is no undo (a remote service)
 * a confirmation naming the count comes first when it touches more than 100 records.
 */
export function TagDialog({ mode, onClose }: { mode: TagDialogMode; onClose: () => void }) {
  const count = useSelectedCount();
  const suggestions = useRecordsStore((s) => s.tagSuggestions);
  const loadSuggestions = useRecordsStore((s) => s.loadTagSuggestions);
  const toast = useShellStore((s) => s.toast);
  const canUndo = useShellStore((s) => s.status?.mode !== 'remote');
  const [text, setText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const task = useDialogTask();
  const { busy, error } = task;
  const t = useT();

  useEffect(() => {
    void loadSuggestions('');
  }, [loadSuggestions]);

  const tags = parseTagInput(text);
  const edit: TagEdit = mode === 'remove' ? { mode, tag: tags[0] ?? '' } : { mode, tags };

  const run = () =>
    task.run(
      async () => {
        const selection = await useRecordsStore.getState().selectionForMain();
        await window.proofdesk.recordsEditTags(selection, edit);
        onClose();
      },
      ({ id, message }) => {
        setConfirming(false);
        if (id === 'internal_error') toast('error', message, { error: { id, message } });
      },
    );

  const apply = () => {
    if (!canUndo && count > CONFIRM_OVER && !confirming) setConfirming(true);
    else void run();
  };

  return (
    <Modal title={t(TITLES[mode])} onClose={onClose}>
      {confirming ? (
        <ConfirmStep busy={busy} onBack={() => setConfirming(false)} onConfirm={() => void run()}>
          <Message id="records.tags.confirm" values={{ mode, count, b: strong }} />
        </ConfirmStep>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <p className="muted">{t('records.dialog.for', { count })}</p>
          <label className="field">
            {mode === 'remove' ? t('records.tags.tag') : t('records.tags.tags')} {mode !== 'remove' && <span className="muted">{t('records.tags.commaSeparated')}</span>}
            <input
              aria-label={mode === 'remove' ? t('records.tags.tag') : t('records.tags.tags')}
              value={text}
              autoFocus
              autoComplete="off"
              onChange={(event) => {
                setText(event.target.value);
                const last = event.target.value.split(',').pop()?.trim() ?? '';
                void loadSuggestions(last);
              }}
            />
          </label>
          {suggestions.length > 0 && (
            <div className="suggestions" role="group" aria-label={t('records.tags.existing')}>
              {suggestions.slice(0, 8).map((s) => (
                <button
                  key={s.tag}
                  type="button"
                  className="tag suggestion"
                  onClick={() => setText(mode === 'remove' ? s.tag : [...parseTagInput(text.endsWith(',') ? `${text} x` : text).slice(0, -1), s.tag].join(', ') + ', ')}
                >
                  {s.tag} <span className="muted">{t('common.number', { value: s.count })}</span>
                </button>
              ))}
            </div>
          )}
          <DialogError error={error} />
          <DialogActions label={t('common.apply')} disabled={busy || (mode !== 'replace' && tags.length === 0)} onCancel={onClose} />
        </form>
      )}
    </Modal>
  );
}
