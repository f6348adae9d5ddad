import { useEffect, useId, useState } from 'react';
import type { RemoteConnection } from '../../common/ipc/settings.js';
import { OutcomeLine } from './outcome-line.js';
import { failedOutcome, type Outcome } from './settings-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { code, Message, useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';
import { Fact } from '../shell/fact.js';

/**
 * Settings › Remote connections: a remote instance of the service (base URL, client id, the
 * secret kept in the key store), tested and saved. Its own small state: nothing else reads it.
 */
export function RemotePanel() {
  const [saved, setSaved] = useState<RemoteConnection | null>(null);
  const [form, setForm] = useState({ base_url: '', auth_url: '', client_id: '', client_secret: '' });
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);
  const id = useId();
  const t = useT();

  useEffect(() => {
    void window.proofdesk.settingsRemote().then(setSaved, () => undefined);
  }, []);

  const input = () => ({
    base_url: form.base_url.trim(),
    ...(form.auth_url.trim() ? { auth_url: form.auth_url.trim() } : {}),
    client_id: form.client_id.trim(),
    client_secret: form.client_secret,
  });
  const run = async (action: 'test' | 'save' | 'use' | 'embedded') => {
    setBusy(true);
    setOutcome(undefined);
    try {
      if (action === 'use') {
        const connection = await window.proofdesk.settingsUseRemote();
        setSaved(connection);
        await useShellStore.getState().loadStatus();
        setOutcome({ tone: 'success', text: t('settings.remote.usingNow', { url: connection.base_url, client: connection.client_id }) });
      } else if (action === 'embedded') {
        await window.proofdesk.settingsUseEmbedded();
        setSaved((s) => (s ? { ...s, active: false, problem: undefined } : s));
        await useShellStore.getState().loadStatus();
        setOutcome({ tone: 'success', text: t('settings.remote.backHome') });
      } else if (action === 'test') {
        const result = await window.proofdesk.settingsTestRemote(input());
        setOutcome({ tone: result.ok ? 'success' : 'error', text: result.message });
      } else {
        const connection = await window.proofdesk.settingsSaveRemote(input());
        setSaved(connection);
        setForm((f) => ({ ...f, client_secret: '' }));
        setOutcome({ tone: 'success', text: t('settings.remote.saved') });
      }
    } catch (error) {
      setOutcome(failedOutcome(error));
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof typeof form) => ({
    id: `${id}-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });
  const complete = form.base_url.trim() !== '' && form.client_id.trim() !== '' && form.client_secret !== '';

  return (
    <div className="settings-panel">
      <p>
        <Message id="settings.remote.intro" values={{ code }} />
      </p>
      {saved && (
        <>
          <dl className="facts" aria-label={t('settings.remote.savedConnection')}>
            <Fact term={t('settings.remote.baseUrl')}><code data-testid="remote-saved-url">{saved.base_url}</code></Fact>
            <Fact term={t('settings.remote.clientId')}><code>{saved.client_id}</code></Fact>
            <Fact term={t('settings.remote.inUse')} data-testid="remote-in-use">{saved.active ? t('settings.remote.inUseYes') : t('settings.remote.inUseNo')}</Fact>
          </dl>
          {saved.problem && (
            <div className="error-panel" role="alert">
              {saved.problem}
            </div>
          )}
          <div className="settings-buttons">
            {saved.active ? (
              <button type="button" disabled={busy} onClick={() => void run('embedded')}>
                {t('settings.remote.useEmbedded')}
              </button>
            ) : (
              <button type="button" disabled={busy} onClick={() => void run('use')}>
                {t('settings.remote.use')}
              </button>
            )}
          </div>
        </>
      )}
      <form
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          void run('save');
        }}
      >
        <h2 id={`${id}-title`}>{t('settings.remote.connectTitle')}</h2>
        <Field {...field('base_url')} label={t('settings.remote.baseUrl')} required placeholder={t('settings.remote.baseUrlPlaceholder')} />
        <Field {...field('auth_url')} label={t('settings.remote.authUrl')} placeholder={t('settings.remote.authUrlPlaceholder')} />
        <Field {...field('client_id')} label={t('settings.remote.clientId')} required />
        <Field {...field('client_secret')} label={t('settings.remote.clientSecret')} type="password" required autoComplete="off" />
        <OutcomeLine outcome={outcome} />
        <div className="settings-buttons">
          <button type="button" disabled={busy || !complete} onClick={() => void run('test')}>
            {t('settings.remote.test')}
          </button>
          <button type="submit" disabled={busy || !complete}>
            {t('settings.remote.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
