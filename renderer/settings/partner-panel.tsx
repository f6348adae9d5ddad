import { useId, useState } from 'react';
import { formatDuration } from '../../common/duration.js';
import { useShellStore } from '../shell/shell-store.js';
import { OutcomeLine } from './outcome-line.js';
import { useSettingsStore } from './settings-store.js';
import { localDateTime } from '../format/local-format.js';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';
import { useResetOnChange } from '../shell/use-reset-on-change.js';
import { Fact } from '../shell/fact.js';

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
  const [interval, setIntervalText] = useState(() => (partner ? formatDuration(partner.issuing_interval_seconds) : ''));
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const t = useT();

  // Another Partner or a saved interval, not every reload: that would overwrite what is being typed.
  useResetOnChange(partner ? `${partner.id} ${partner.issuing_interval_seconds}` : '', () => {
    if (partner) setIntervalText(formatDuration(partner.issuing_interval_seconds));
  });

  if (!partner) return <p>{t('settings.partner.none')}</p>;
  return (
    <div className="settings-panel">
      <div className="field">
        <label htmlFor={`${id}-partner`}>{t('settings.partner.active')}</label>
        <select id={`${id}-partner`} value={partner.id} onChange={(e) => void switchPartner(e.target.value).then(() => useSettingsStore.getState().load())}>
          {partners.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <dl className="facts">
        <Fact term={t('settings.partner.id')}><code>{partner.id}</code></Fact>
        <Fact term={t('settings.partner.since')}>{localDateTime(partner.created_date)}</Fact>
        <Fact term={t('settings.partner.clientId')}><code data-testid="settings-client-id">{partner.client_id}</code></Fact>
      </dl>
      <form
        aria-label={t('settings.partner.interval')}
        onSubmit={(e) => {
          e.preventDefault();
          void saveInterval(interval);
        }}
      >
        <Field id={`${id}-interval`} label={t('settings.partner.interval')} help={t('settings.partner.intervalHelp')} value={interval} onChange={(e) => setIntervalText(e.target.value)} />
        <OutcomeLine outcome={outcomes.interval} />
        <button type="submit" disabled={busy.interval}>{t('settings.partner.saveInterval')}</button>
      </form>
      <h2>{t('settings.partner.secret')}</h2>
      <p className="muted">{t('settings.partner.secretHelp')}</p>
      {newSecret ? (
        <div className="settings-secret" role="status">
          <p>{t('settings.partner.newSecretShown')}</p>
          <code data-testid="settings-new-secret">{newSecret.client_secret}</code>
        </div>
      ) : confirming ? (
        <div role="group" aria-label={t('settings.partner.confirmGroup')}>
          <p>{t('settings.partner.confirmText')}</p>
          <button type="button" onClick={() => void makeNewSecret().then(() => setConfirming(false))} disabled={busy.secret}>
            {t('settings.partner.makeSecret')}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>{t('settings.partner.keepSecret')}</button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>{t('settings.partner.newSecret')}</button>
      )}
      <OutcomeLine outcome={outcomes.secret} />
    </div>
  );
}

const NO_PARTNERS: never[] = [];
