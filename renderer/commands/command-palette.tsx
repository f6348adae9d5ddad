import { useId, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { type CommandId } from '../../common/commands.js';
import { openDetail } from '../detail/detail-store.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { canRun, runCommand, useCommandContext, useCommandHandlers, windowCommands } from './command-registry.js';
import { filterOptions } from './palette-filter.js';
import { useRecentRecords } from './recent-records.js';
import { commandSectionTitle, commandTitle } from './command-title.js';
import { useT } from '../i18n/use-t.js';
import { shortcutText } from './shortcut-text.js';

/** One line of the palette: a command, or a record opened lately. */
interface PaletteOption {
  key: string;
  label: string;
  /** The shortcut, or `Record` for a record. */
  hint: string;
  /** Other words the query matches (the command's menu). */
  context: string;
  disabled: boolean;
  run(): void;
}

/**
 * The command palette (Ctrl/Cmd+K): every command of the window by name with its shortcut, and
 * the records opened lately by title, filtered as one types; ↑ ↓ choose, Enter runs, Escape closes.
 */
export function CommandPalette({ onClose }: { onClose(): void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const ctx = useCommandContext();
  const handlers = useCommandHandlers();
  const recent = useRecentRecords((s) => s.recent);
  const listId = useId();
  const t = useT();

  const options = useMemo<PaletteOption[]>(() => {
    const commands = windowCommands()
      .filter((c) => c.id !== 'view.palette')
      .map((c) => ({
        key: c.id,
        label: commandTitle(c.id as CommandId).replace(/…$/, ''),
        hint: c.accelerator ? shortcutText(c.accelerator) : '',
        context: commandSectionTitle(c.section),
        disabled: !canRun(c, ctx, handlers),
        run: () => void runCommand(c.id as CommandId),
      }));
    const records = recent.map((r) => ({
      key: `record:${r.uid}`,
      label: r.title,
      hint: t('commands.palette.record'),
      context: 'record',
      disabled: false,
      run: () => {
        useShellStore.getState().go('records');
        void openDetail(r.uid);
      },
    }));
    return [...commands, ...records];
  }, [ctx, handlers, recent]);

  const shown = filterOptions(options, query);
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const optionId = (i: number) => `${listId}-${i}`;

  const choose = (option: PaletteOption | undefined) => {
    if (!option || option.disabled) return;
    // The palette closes (and gives focus back) before the command runs, so a command that
    // moves focus or opens a dialog keeps it.
    flushSync(onClose);
    option.run();
  };

  return (
    <Modal title={t('commands.palette.title')} onClose={onClose}>
      <div className="command-palette">
        <input
          type="text"
          role="combobox"
          aria-label={t('commands.palette.input')}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown.length > 0 ? optionId(current) : undefined}
          placeholder={t('commands.palette.placeholder')}
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((current + 1) % Math.max(1, shown.length));
            else if (e.key === 'ArrowUp') setActive((current - 1 + shown.length) % Math.max(1, shown.length));
            else if (e.key === 'Home' && e.ctrlKey) setActive(0);
            else if (e.key === 'End' && e.ctrlKey) setActive(shown.length - 1);
            else if (e.key === 'Enter') choose(shown[current]);
            else return;
            e.preventDefault();
          }}
        />
        <ul id={listId} role="listbox" aria-label={t('commands.palette.list')} className="command-palette-list">
          {shown.map((option, i) => (
            <li
              key={option.key}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              aria-disabled={option.disabled ? true : undefined}
              ref={i === current ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              <span>{option.label}</span>
              <span className="command-palette-hint">{option.hint || option.context}</span>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="muted">{t('commands.palette.none', { query })}</p>}
      </div>
    </Modal>
  );
}
