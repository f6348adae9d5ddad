import { useEffect } from 'react';
import { EnginesPanel } from './engines-panel.js';
import { KeysPanel } from './keys-panel.js';
import { PartnerPanel } from './partner-panel.js';
import { RemotePanel } from './remote-panel.js';
import { useSettingsStore, type SettingsTab } from './settings-store.js';
import { OutcomeLine } from './outcome-line.js';
import './settings.css';

const TABS: Array<{ id: SettingsTab; label: string }> = [
  { id: 'partner', label: 'Partner' },
  { id: 'keys', label: 'Keys' },
  { id: 'engines', label: 'Engines' },
  { id: 'remote', label: 'Remote connections' },
];

/** Settings: Partner, keys, engines, remote connections, as tabs (arrow keys move between them). */
export function SettingsView() {
  const tab = useSettingsStore((s) => s.tab);
  const setTab = useSettingsStore((s) => s.setTab);
  const load = useSettingsStore((s) => s.load);
  const overview = useSettingsStore((s) => s.overview);
  const loadOutcome = useSettingsStore((s) => s.outcomes.load);

  useEffect(() => {
    void load();
  }, [load]);

  const move = (step: number) => {
    const index = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(index + step + TABS.length) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`settings-tab-${next.id}`)?.focus();
  };

  return (
    <section className="view settings" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <div
        role="tablist"
        aria-label="Settings sections"
        className="settings-tabs"
        onKeyDown={(e) => {
          if (e.key === 'ArrowRight') move(1);
          if (e.key === 'ArrowLeft') move(-1);
        }}
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`settings-tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls="settings-tabpanel"
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id="settings-tabpanel" role="tabpanel" aria-labelledby={`settings-tab-${tab}`} className="settings-body">
        <OutcomeLine outcome={loadOutcome} />
        {overview?.mode === 'remote' && tab !== 'remote' ? (
          <p>This app is connected to a remote service: its Partner, keys and engines are managed there.</p>
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
