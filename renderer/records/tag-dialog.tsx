import { useEffect, useState } from 'react';
import type { TagEdit } from '../../common/records.js';
import { ConfirmStep, DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { CONFIRM_OVER, credentials } from './count-text.js';
import { useRecordsStore, useSelectedCount } from './records-store.js';

export type TagDialogMode = TagEdit['mode'];

const TITLES: Record<TagDialogMode, string> = { add: 'Add tags', replace: 'Replace tags', remove: 'Remove tag' };
const VERBS: Record<TagDialogMode, string> = { add: 'add these tags to', replace: 'replace the tags of', remove: 'remove this tag from' };

/** Splits "a, b ,c" into tags; empty entries are dropped. */
export function parseTagInput(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * `Add tags`, `Replace tags` and `Remove tag` on the selection: all or nothing in main, one
 * confirmation naming the count when it touches more than 100 records.
 */
export function TagDialog({ mode, onClose }: { mode: TagDialogMode; onClose: () => void }) {
  const count = useSelectedCount();
  const suggestions = useRecordsStore((s) => s.tagSuggestions);
  const loadSuggestions = useRecordsStore((s) => s.loadTagSuggestions);
  const toast = useShellStore((s) => s.toast);
  const [text, setText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const task = useDialogTask();
  const { busy, error } = task;

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
        if (id === 'internal_error') toast('error', message);
      },
    );

  const apply = () => {
    if (count > CONFIRM_OVER && !confirming) setConfirming(true);
    else void run();
  };

  return (
    <Modal title={TITLES[mode]} onClose={onClose}>
      {confirming ? (
        <ConfirmStep busy={busy} onBack={() => setConfirming(false)} onConfirm={() => void run()}>
          This will {VERBS[mode]} <strong>{credentials(count)}</strong>, all of them or none. Continue?
        </ConfirmStep>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <p className="muted">For {credentials(count)}.</p>
          <label className="field">
            {mode === 'remove' ? 'Tag' : 'Tags'} {mode !== 'remove' && <span className="muted">(comma-separated)</span>}
            <input
              aria-label={mode === 'remove' ? 'Tag' : 'Tags'}
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
            <div className="suggestions" role="group" aria-label="Existing tags">
              {suggestions.slice(0, 8).map((s) => (
                <button
                  key={s.tag}
                  type="button"
                  className="tag suggestion"
                  onClick={() => setText(mode === 'remove' ? s.tag : [...parseTagInput(text.endsWith(',') ? `${text} x` : text).slice(0, -1), s.tag].join(', ') + ', ')}
                >
                  {s.tag} <span className="muted">{s.count.toLocaleString('en-US')}</span>
                </button>
              ))}
            </div>
          )}
          <DialogError error={error} />
          <DialogActions label="Apply" disabled={busy || (mode !== 'replace' && tags.length === 0)} onCancel={onClose} />
        </form>
      )}
    </Modal>
  );
}
