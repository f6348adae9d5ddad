import { useEffect, useId, useState } from 'react';
import { formatDuration } from '../../common/duration.js';
import { useShellStore } from '../shell/shell-store.js';
import { OutcomeLine } from './outcome-line.js';
import { useSettingsStore } from './settings-store.js';

/** Settings › Partner: which Partner is active, its issuing interval, its client credentials. */
export function PartnerPanel() {
  const overview = useSettingsStore((s) => s.overview);
  const outcomes = useSettingsStore((s) => s.outcomes);
  const busy = useSettingsStore((s) => s.busy);
  const newSecret = useSettingsStore((s) => s.newSecret);
  const saveInterval = useSettingsStore((s) => s.setInterval);
  const makeNewSecret = useSettingsStore((s) => s.makeNewSecret);
  // The status bar's switcher and this one share the shell's store and its IPC call.
  const partners = useShellStore((s) => s.status?.partners ?? NO_PARTNERS);
  const switchPartner = useShellStore((s) => s.switchPartner);
  const partner = overview?.partner ?? null;
  const [interval, setIntervalText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const id = useId();

  useEffect(() => {
    if (partner) setIntervalText(formatDuration(partner.issuing_interval_seconds));
  }, [partner?.id, partner?.issuing_interval_seconds]); // not on every reload: that would overwrite what is being typed

  if (!partner) return <p>No Partner is active.</p>;
  return (
    <div className="settings-panel">
      <div className="field">
        <label htmlFor={`${id}-partner`}>Active Partner</label>
        <select id={`${id}-partner`} value={partner.id} onChange={(e) => void switchPartner(e.target.value).then(() => useSettingsStore.getState().load())}>
          {partners.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <dl className="facts">
        <dt>Partner id</dt>
        <dd><code>{partner.id}</code></dd>
        <dt>Since</dt>
        <dd>{partner.created_date}</dd>
        <dt>Client id</dt>
        <dd><code data-testid="settings-client-id">{partner.client_id}</code></dd>
      </dl>
      <form
        aria-label="Issuing interval"
        onSubmit={(e) => {
          e.preventDefault();
          void saveInterval(interval);
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-interval`}>Issuing interval</label>
          <input id={`${id}-interval`} value={interval} onChange={(e) => setIntervalText(e.target.value)} aria-describedby={`${id}-interval-help`} />
          <span id={`${id}-interval-help`} className="muted">How often scheduled credentials are issued together: a number with s, m, h or d.</span>
        </div>
        <OutcomeLine outcome={outcomes.interval} />
        <button type="submit" disabled={busy.interval}>Save interval</button>
      </form>
      <h2>Client secret</h2>
      <p className="muted">Tools that call this Partner&apos;s service use the client id and its secret. A new secret replaces the old one at once.</p>
      {newSecret ? (
        <div className="settings-secret" role="status">
          <p>New client secret, shown this once: copy it now.</p>
          <code data-testid="settings-new-secret">{newSecret.client_secret}</code>
        </div>
      ) : confirming ? (
        <div role="group" aria-label="Confirm new client secret">
          <p>Tools using the old secret stop working until they get the new one. Make a new secret?</p>
          <button type="button" onClick={() => void makeNewSecret().then(() => setConfirming(false))} disabled={busy.secret}>
            Make the new secret
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>Keep the old one</button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>New client secret</button>
      )}
      <OutcomeLine outcome={outcomes.secret} />
    </div>
  );
}

const NO_PARTNERS: never[] = [];
