import { useEffect, useRef, useState } from 'react';
import type { EngineStatus } from '../../common/ipc/app.js';
import { useT } from '../i18n/use-t.js';
import { chainTechnical, engineDisplayName } from '../format/chain-display.js';

/**
 * `Create` and `Create and schedule on <chain>` (the engine's display name) as one split control (group `Create
 * credentials`); with more than one engine, its arrow (`Engine to schedule on`) opens a menu
 * that picks the engine the second part schedules on.
 */
export function CreateSplitButton({ engines, disabled, onCreate }: { engines: EngineStatus[]; disabled: boolean; onCreate(engine: string | null): void }) {
  const t = useT();
  const [engine, setEngine] = useState('');
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const chosen = engines.find((e) => e.id === engine)?.id ?? engines[0]?.id ?? '';

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onMenuKey = (e: React.KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };

  return (
    <div role="group" aria-label={t('staging.createGroup')} className="split-button">
      <button type="button" className="primary" disabled={disabled} onClick={() => onCreate(null)}>
        {t('staging.create')}
      </button>
      <button type="button" disabled={disabled || chosen === ''} onClick={() => onCreate(chosen)}>
        {t('staging.createAndScheduleOn', { engine: engineDisplayName(chosen, engines) })}
      </button>
      {engines.length > 1 && (
        <button ref={toggle} type="button" className="split-toggle" aria-label={t('staging.engine')} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">▾</span>
        </button>
      )}
      {open && (
        <div ref={menu} role="menu" aria-label={t('staging.engine')} className="split-menu" onKeyDown={onMenuKey} onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}>
          {engines.map((e) => (
            <button
              key={e.id}
              type="button"
              role="menuitemradio"
              aria-checked={e.id === chosen}
              tabIndex={-1}
              onClick={() => {
                setEngine(e.id);
                close();
              }}
              title={chainTechnical(e)}
            >
              {engineDisplayName(e.id, engines)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
