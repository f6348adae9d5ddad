import { useEffect } from 'react';
import type { MessageId } from '../i18n/i18n-store.js';
import { EnginesPanel } from './engines-panel.js';
import { KeysPanel } from './keys-panel.js';
import { PartnerPanel } from './partner-panel.js';
import { RemotePanel } from './remote-panel.js';
import { useSettingsStore, type SettingsTab } from './settings-store.js';
import { OutcomeLine } from './outcome-line.js';
import { LanguageSelect } from './language-select.js';
import { useT } from '../i18n/use-t.js';
import './settings.css';

const TABS = [
  { id: 'partner', label: 'settings.tab.partner' },
  { id: 'keys', label: 'settings.tab.keys' },
  { id: 'engines', label: 'settings.tab.engines' },
  { id: 'remote', label: 'settings.tab.remote' },
] as const satisfies ReadonlyArray<{ id: SettingsTab; label: MessageId }>;

/** Settings: Partner, keys, engines, remote connections, as tabs (arrow keys move between them). */
export function SettingsView() {
  const tab = useSettingsStore((s) => s.tab);
  const setTab = useSettingsStore((s) => s.setTab);
  const load = useSettingsStore((s) => s.load);
  const overview = useSettingsStore((s) => s.overview);
  const loadOutcome = useSettingsStore((s) => s.outcomes.load);
  const t = useT();

  useEffect(() => {
    void load();
  }, [load]);

  const move = (step: number) => {
    const index = TABS.findIndex((entry) => entry.id === tab);
    const next = TABS[(index + step + TABS.length) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`settings-tab-${next.id}`)?.focus();
  };

  return (
    <section className="view settings" aria-labelledby="settings-title">
      <div className="toolbar">
        <h1 id="settings-title">{t('settings.title')}</h1>
        <span className="spacer" />
        <LanguageSelect />
      </div>
      <div
        role="tablist"
        aria-label={t('settings.tabs.label')}
        className="settings-tabs"
        onKeyDown={(e) => {
          if (e.key === 'ArrowRight') move(1);
          if (e.key === 'ArrowLeft') move(-1);
        }}
      >
        {TABS.map((entry) => (
          <button
            key={entry.id}
            id={`settings-tab-${entry.id}`}
            type="button"
            role="tab"
            aria-selected={tab === entry.id}
            aria-controls="settings-tabpanel"
            tabIndex={tab === entry.id ? 0 : -1}
            onClick={() => setTab(entry.id)}
          >
            {t(entry.label)}
          </button>
        ))}
      </div>
      <div id="settings-tabpanel" role="tabpanel" aria-labelledby={`settings-tab-${tab}`} className="settings-body">
        <OutcomeLine outcome={loadOutcome} />
        {overview?.mode === 'remote' && tab !== 'remote' ? (
          <p>{t('settings.remoteManaged')}</p>
        ) : (
          <>
            {tab === 'partner' && <PartnerPanel />}
            {tab === 'keys' && <KeysPanel />}
            {tab === 'engines' && <EnginesPanel />}
            {tab === 'remote' && <RemotePanel />}
          </>
        )}
      </div>
    </section>
  );
}
