import { useEffect, useState } from 'react';
import type { EngineFunds } from '../../common/ipc/app.js';
import { useShellStore, runningTasks } from './shell-store.js';
import { UnlockKeys } from '../settings/unlock-dialog.js';

/** Which service the views work on: this machine's engine, or the remote one (its address). */
function ServiceInUse({ mode }: { mode: 'embedded' | 'remote' }) {
  const [remote, setRemote] = useState<string | null>(null);
  useEffect(() => {
    if (mode !== 'remote') return;
    let live = true;
    void window.proofdesk.settingsRemote().then(
      (connection) => live && setRemote(connection?.base_url ?? null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [mode]);
  return (
    <span className="status-item" data-testid="status-service">
      {mode === 'remote' ? (
        <>
          Service <strong>remote</strong>
          {remote && (
            <>
              {' '}
              <code>{remote}</code>
            </>
          )}
        </>
      ) : (
        <>Service <strong>this machine</strong></>
      )}
    </span>
  );
}

/** The low-funds warning, the same words in the status bar and Settings › Engines. */
export function lowFundsText(engine: string, funds: EngineFunds): string {
  const jobs = funds.jobs_covered === 1 ? '1 job' : `${funds.jobs_covered} jobs`;
  return `Low funds on ${engine}: ${funds.balance} pays for ${jobs} (about ${funds.job_cost} each at today's fees); fund ${funds.address}`;
}

const KEY_STORE_LABEL = { keychain: 'Keys in the OS keychain', 'encrypted-file': 'Keys in an encrypted file' } as const;

/** The status bar: active Partner (and switcher), engines and their chains, key store, background work. */
export function StatusBar() {
  const loaded = useShellStore((s) => s.statusLoaded);
  const status = useShellStore((s) => (s.statusLoaded ? s.status : null));
  const statusError = useShellStore((s) => s.statusError);
  const tasks = useShellStore((s) => s.tasks);
  const switchPartner = useShellStore((s) => s.switchPartner);
  const cancelTask = useShellStore((s) => s.cancelTask);
  const running = runningTasks(tasks);

  return (
    <footer className="status-bar" aria-label="Status">
      {statusError && <span className="status-item status-error">{statusError}</span>}
      {!loaded && !statusError && <span className="status-item muted">Loading…</span>}
      {status && (
        <>
          <span className="status-item" data-testid="status-partner">
            {status.partners.length > 1 ? (
              <label>
                Partner{' '}
                <select value={status.partner?.id ?? ''} onChange={(e) => void switchPartner(e.target.value)} aria-label="Partner">
                  {status.partners.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : status.partner ? (
              <>
                Partner <strong>{status.partner.name}</strong>
              </>
            ) : (
              <span>No Partner yet: set one up on the first-run page.</span> /* the first run makes it */
            )}
          </span>
          <ServiceInUse mode={status.mode} />
          {status.engines.map((engine) => (
            <span key={engine.id} className="status-item" title={engine.detail ?? undefined} data-testid={`status-engine-${engine.id}`}>
              <span className={`dot dot-${status.mode === 'remote' ? 'unknown' : engine.chain}`} aria-hidden="true" />
              <code>{engine.id}</code> {engine.environment},{' '}
              {status.mode === 'remote' ? 'on the remote service' : `chain ${engine.chain === 'connected' ? 'connected' : engine.chain === 'unreachable' ? 'unreachable' : 'not checked yet'}`}
            </span>
          ))}
          {status.mode === 'embedded' &&
            status.engines.map((engine) =>
              engine.funds?.low ? (
                <span key={`funds-${engine.id}`} className="status-item status-warning" role="status" data-testid={`status-funds-${engine.id}`} title={engine.funds.address}>
                  {lowFundsText(engine.id, engine.funds)}
                </span>
              ) : null,
            )}
          <span className="status-item" data-testid="status-keys">
            {status.mode === 'remote' ? 'Keys kept by the remote service' : status.keyStore ? KEY_STORE_LABEL[status.keyStore] : 'No key store'}
          </span>
          {status.issuingOff && (
            <span className="status-item status-warning" role="status" data-testid="status-issuing-off">
              Issuing is off: {status.issuingOff}
            </span>
          )}
          {status.issuingOff && status.mode === 'embedded' && (
            <UnlockKeys issuingOff={status.issuingOff} />
          )}
        </>
      )}
      <span className="status-tasks">
        {running.map((task) => (
          <span key={task.id} className="status-task">
            <span>{task.label}</span>
            <progress aria-label={task.label} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
            <button type="button" className="link-button" aria-label={`Cancel ${task.label}`} onClick={() => void cancelTask(task.id)}>
              Cancel
            </button>
          </span>
        ))}
      </span>
    </footer>
  );
}
