import { useEffect, useId, useState } from 'react';
import type { EngineStatus } from '../../common/ipc/app.js';
import { useShellStore } from '../shell/shell-store.js';
import { lowFundsText } from '../shell/status-bar.js';
import { OutcomeLine } from './outcome-line.js';
import { useSettingsStore } from './settings-store.js';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';
import { ColumnHeads } from '../shell/column-heads.js';

const EMPTY = { id: '', rpc_url: '', chain_id: '', confirmations: '2', environment: 'live' as 'live' | 'demo', explorer_tx_url: '', explorer_address_url: '' };

/** Settings › Engines: the engines of the data directory, and adding an EVM chain with a connection test. */
export function EnginesPanel() {
  const engines = useSettingsStore((s) => s.engines);
  const loadEngines = useSettingsStore((s) => s.loadEngines);
  const testEngine = useSettingsStore((s) => s.testEngine);
  const addEngine = useSettingsStore((s) => s.addEngine);
  const busy = useSettingsStore((s) => s.busy);
  const outcomes = useSettingsStore((s) => s.outcomes);
  // The status bar's probe says what the active Partner's account pays for on each engine.
  const status = useShellStore((s) => (s.statusLoaded ? s.status : null));
  const lowFunds: EngineStatus[] = status?.mode === 'embedded' ? status.engines.filter((e) => e.funds?.low) : [];
  const [form, setForm] = useState(EMPTY);
  const id = useId();
  const t = useT();

  useEffect(() => {
    void loadEngines();
  }, [loadEngines]);

  const field = (key: keyof typeof EMPTY) => ({
    id: `${id}-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });
  const chainId = Number(form.chain_id);

  return (
    <div className="settings-panel">
      <table className="settings-table" aria-label={t('settings.engines.table')}>
        <ColumnHeads names={[t('settings.engines.column.engine'), t('settings.engines.column.chainId'), t('settings.engines.column.environment'), t('settings.engines.column.confirmations'), t('settings.engines.column.rpc'), t('settings.engines.column.explorer')]} />
        <tbody>
          {(engines ?? []).map((e) => (
            <tr key={e.id}>
              <td><code>{e.id}</code></td>
              <td>{e.chain_id ?? '—'}</td>
              <td>{e.environment}</td>
              <td>{e.confirmations}</td>
              <td>{e.rpc_url ?? t('settings.engines.startedHere')}</td>
              <td>{e.explorer_tx_url ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {lowFunds.map((e) => (
        <p key={e.id} className="status-warning" role="status" data-testid={`settings-funds-${e.id}`}>
          {lowFundsText(e, e.funds!)}
        </p>
      ))}
      <form
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          void addEngine({
            id: form.id.trim(),
            rpc_url: form.rpc_url.trim(),
            chain_id: chainId,
            confirmations: Number(form.confirmations),
            environment: form.environment,
            ...(form.explorer_tx_url.trim() ? { explorer_tx_url: form.explorer_tx_url.trim() } : {}),
            ...(form.explorer_address_url.trim() ? { explorer_address_url: form.explorer_address_url.trim() } : {}),
          }).then((ok) => ok && setForm(EMPTY));
        }}
      >
        <h2 id={`${id}-title`}>{t('settings.engines.addTitle')}</h2>
        <Field {...field('id')} label={t('settings.engines.id')} help={t('settings.engines.idHelp')} required placeholder={t('settings.engines.idPlaceholder')} />
        <Field {...field('rpc_url')} label={t('settings.engines.rpc')} required placeholder={t('settings.engines.rpcPlaceholder')} />
        <Field {...field('chain_id')} label={t('settings.engines.chainId')} required inputMode="numeric" placeholder="11155111" />
        <Field {...field('confirmations')} label={t('settings.engines.confirmations')} required inputMode="numeric" />
        <div className="field">
          <label htmlFor={`${id}-environment`}>{t('settings.engines.environment')}</label>
          <select id={`${id}-environment`} value={form.environment} onChange={(e) => setForm((f) => ({ ...f, environment: e.target.value as 'live' | 'demo' }))}>
            <option value="live">{t('settings.engines.live')}</option>
            <option value="demo">{t('settings.engines.demo')}</option>
          </select>
        </div>
        <Field {...field('explorer_tx_url')} label={t('settings.engines.explorerTx')} placeholder={t('settings.engines.explorerTxPlaceholder')} />
        <Field {...field('explorer_address_url')} label={t('settings.engines.explorerAddress')} placeholder={t('settings.engines.explorerAddressPlaceholder')} />
        <OutcomeLine outcome={outcomes.engineTest} />
        <OutcomeLine outcome={outcomes.engineAdd} />
        <div className="settings-buttons">
          <button
            type="button"
            disabled={busy.engineTest || form.rpc_url.trim() === '' || !Number.isSafeInteger(chainId) || chainId < 1}
            onClick={() => void testEngine(form.rpc_url.trim(), chainId)}
          >
            {busy.engineTest ? t('settings.engines.testing') : t('settings.engines.test')}
          </button>
          <button type="submit" disabled={busy.engineAdd}>
            {t('settings.engines.add')}
          </button>
        </div>
      </form>
    </div>
  );
}
