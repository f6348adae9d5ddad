import { useEffect, useId, useState } from 'react';
import type { RemoteConnection } from '../../common/ipc/settings.js';
import { toServiceError } from '../ipc-error.js';
import { OutcomeLine } from './outcome-line.js';
import type { Outcome } from './settings-store.js';
import { useShellStore } from '../shell/shell-store.js';

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
        setOutcome({ tone: 'success', text: `Every view now works over ${connection.base_url} as ${connection.client_id}.` });
      } else if (action === 'embedded') {
        await window.proofdesk.settingsUseEmbedded();
        setSaved((s) => (s ? { ...s, active: false, problem: undefined } : s));
        await useShellStore.getState().loadStatus();
        setOutcome({ tone: 'success', text: "Every view works on this machine's engine again." });
      } else if (action === 'test') {
        const result = await window.proofdesk.settingsTestRemote(input());
        setOutcome({ tone: result.ok ? 'success' : 'error', text: result.message });
      } else {
        const connection = await window.proofdesk.settingsSaveRemote(input());
        setSaved(connection);
        setForm((f) => ({ ...f, client_secret: '' }));
        setOutcome({ tone: 'success', text: `Saved: the client secret is in the key store, the rest in remote.json of the data directory.` });
      }
    } catch (error) {
      const { message, id: errorId } = toServiceError(error);
      setOutcome({ tone: 'error', text: `${message} (${errorId})` });
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
        A remote instance of the Credential Issuing Service (the Live or Demo service, or another Proofdesk&apos;s <code>serve</code>). With &ldquo;Use this
        connection&rdquo; every view works over it: Records lists its credentials by tags and upload date, and tagging, scheduling, jobs, detail, verifying and proof
        downloads go through its API. Word search, the state on each engine and watch folders need this machine&apos;s engine and are off meanwhile.
      </p>
      {saved && (
        <>
          <dl className="facts" aria-label="Saved connection">
            <dt>Base URL</dt>
            <dd><code data-testid="remote-saved-url">{saved.base_url}</code></dd>
            <dt>Client id</dt>
            <dd><code>{saved.client_id}</code></dd>
            <dt>In use</dt>
            <dd data-testid="remote-in-use">{saved.active ? 'Yes: every view works over this connection' : "No: the views work on this machine's engine"}</dd>
          </dl>
          {saved.problem && (
            <div className="error-panel" role="alert">
              {saved.problem}
            </div>
          )}
          <div className="settings-buttons">
            {saved.active ? (
              <button type="button" disabled={busy} onClick={() => void run('embedded')}>
                Use this machine&apos;s engine
              </button>
            ) : (
              <button type="button" disabled={busy} onClick={() => void run('use')}>
                Use this connection
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
        <h2 id={`${id}-title`}>Connect to a remote service</h2>
        <div className="field">
          <label htmlFor={`${id}-base_url`}>Base URL</label>
          <input {...field('base_url')} required placeholder="https://issuer.example/api" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-auth_url`}>Auth URL (optional)</label>
          <input {...field('auth_url')} placeholder="the base URL's origin" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-client_id`}>Client id</label>
          <input {...field('client_id')} required />
        </div>
        <div className="field">
          <label htmlFor={`${id}-client_secret`}>Client secret</label>
          <input {...field('client_secret')} type="password" required autoComplete="off" />
        </div>
        <OutcomeLine outcome={outcome} />
        <div className="settings-buttons">
          <button type="button" disabled={busy || !complete} onClick={() => void run('test')}>
            Test remote connection
          </button>
          <button type="submit" disabled={busy || !complete}>
            Save connection
          </button>
        </div>
      </form>
    </div>
  );
}
