import { useEffect, useId, useState } from 'react';
import type { EngineStatus } from '../../common/ipc/app.js';
import { useShellStore } from '../shell/shell-store.js';
import { lowFundsText } from '../shell/status-bar.js';
import { OutcomeLine } from './outcome-line.js';
import { useSettingsStore } from './settings-store.js';

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
      <table className="settings-table" aria-label="Engines">
        <thead>
          <tr>
            <th scope="col">Engine</th>
            <th scope="col">Chain id</th>
            <th scope="col">Environment</th>
            <th scope="col">Confirmations</th>
            <th scope="col">RPC URL</th>
            <th scope="col">Explorer</th>
          </tr>
        </thead>
        <tbody>
          {(engines ?? []).map((e) => (
            <tr key={e.id}>
              <td><code>{e.id}</code></td>
              <td>{e.chain_id ?? '—'}</td>
              <td>{e.environment}</td>
              <td>{e.confirmations}</td>
              <td>{e.rpc_url ?? 'started by Proofdesk on this machine'}</td>
              <td>{e.explorer_tx_url ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {lowFunds.map((e) => (
        <p key={e.id} className="status-warning" role="status" data-testid={`settings-funds-${e.id}`}>
          {lowFundsText(e.id, e.funds!)}
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
        <h2 id={`${id}-title`}>Add an EVM chain</h2>
        <div className="field">
          <label htmlFor={`${id}-id`}>Engine id</label>
          <input {...field('id')} required placeholder="sepolia" aria-describedby={`${id}-id-help`} />
          <span id={`${id}-id-help`} className="muted">Lowercase letters, digits, “-” or “_”; credentials are scheduled on it by this id.</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-rpc_url`}>RPC URL</label>
          <input {...field('rpc_url')} required placeholder="https://rpc.example.org" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-chain_id`}>Chain id</label>
          <input {...field('chain_id')} required inputMode="numeric" placeholder="11155111" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-confirmations`}>Confirmations</label>
          <input {...field('confirmations')} required inputMode="numeric" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-environment`}>Environment</label>
          <select id={`${id}-environment`} value={form.environment} onChange={(e) => setForm((f) => ({ ...f, environment: e.target.value as 'live' | 'demo' }))}>
            <option value="live">live (credentials issued here are valid)</option>
            <option value="demo">demo (for trying things out)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-explorer_tx_url`}>Explorer transaction URL</label>
          <input {...field('explorer_tx_url')} placeholder="https://explorer.example/tx/{tx}" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-explorer_address_url`}>Explorer address URL</label>
          <input {...field('explorer_address_url')} placeholder="https://explorer.example/address/{address}" />
        </div>
        <OutcomeLine outcome={outcomes.engineTest} />
        <OutcomeLine outcome={outcomes.engineAdd} />
        <div className="settings-buttons">
          <button
            type="button"
            disabled={busy.engineTest || form.rpc_url.trim() === '' || !Number.isSafeInteger(chainId) || chainId < 1}
            onClick={() => void testEngine(form.rpc_url.trim(), chainId)}
          >
            {busy.engineTest ? 'Testing…' : 'Test connection'}
          </button>
          <button type="submit" disabled={busy.engineAdd}>
            Add engine
          </button>
        </div>
      </form>
    </div>
  );
}
