import { useEffect, useState } from 'react';
import type { EngineFunds, EngineStatus } from '../../common/ipc/app.js';
import { chainName, chainTechnical, etherAmount } from '../format/chain-display.js';
import { firstSentence } from './error-line.js';
import { useShellStore, runningTasks } from './shell-store.js';
import { UnlockKeys } from '../settings/unlock-dialog.js';
import { Message, strong, useT } from '../i18n/use-t.js';
import { t as translate } from '../i18n/i18n-store.js';
import { taskLabel } from './task-label.js';

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
          <Message id="shell.status.serviceRemote" values={{ b: strong }} />
          {remote && (
            <>
              {' '}
              <code>{remote}</code>
            </>
          )}
        </>
      ) : (
        <Message id="shell.status.serviceLocal" values={{ b: strong }} />
      )}
    </span>
  );
}

/** The low-funds warning, the same words in the status bar and Settings › Engines: the chain by name, amounts in ETH. */
export function lowFundsText(engine: Pick<EngineStatus, 'id' | 'chain_id'>, funds: EngineFunds): string {
  return translate('shell.status.lowFunds', { engine: chainName(engine), balance: etherAmount(funds.balance), jobs: funds.jobs_covered, cost: etherAmount(funds.job_cost), address: funds.address });
}

/** Where the keys are kept, in the bar's words. */
const KEY_STORE_LABEL = { keychain: 'shell.status.keysKeychain', 'encrypted-file': 'shell.status.keysFile' } as const;

/** The tooltip of an engine's chain: its block, or why it does not answer (main's reason, English). */
function chainDetail(engine: EngineStatus, t: ReturnType<typeof useT>): string | undefined {
  if (engine.block !== null) return t('shell.status.atBlock', { block: engine.block });
  return engine.detail ? t('shell.status.unreachable', { engine: chainName(engine), reason: engine.detail }) : undefined;
}
/** The status bar: active Partner (and switcher), engines and their chains, key store, background work. */
export function StatusBar() {
  const loaded = useShellStore((s) => s.statusLoaded);
  const status = useShellStore((s) => (s.statusLoaded ? s.status : null));
  const statusError = useShellStore((s) => s.statusError);
  const tasks = useShellStore((s) => s.tasks);
  const switchPartner = useShellStore((s) => s.switchPartner);
  const cancelTask = useShellStore((s) => s.cancelTask);
  const running = runningTasks(tasks);
  const t = useT();

  return (
    <footer className="status-bar" aria-label={t('shell.status.label')}>
      {statusError && <span className="status-item status-error">{statusError}</span>}
      {!loaded && !statusError && <span className="status-item muted">{t('shell.status.loading')}</span>}
      {status && (
        <>
          <span className="status-item" data-testid="status-partner">
            {status.partners.length > 1 ? (
              <label>
                {t('shell.status.partner')}{' '}
                <select value={status.partner?.id ?? ''} onChange={(e) => void switchPartner(e.target.value)} aria-label={t('shell.status.partner')}>
                  {status.partners.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : status.partner ? (
              <Message id="shell.status.partnerName" values={{ b: strong, name: status.partner.name }} />
            ) : (
              <span>{t('shell.status.noPartner')}</span> /* the first run makes it */
            )}
          </span>
          <ServiceInUse mode={status.mode} />
          {status.engines.map((engine) => (
            <span key={engine.id} className="status-item" title={[chainTechnical(engine), chainDetail(engine, t)].filter(Boolean).join('\n')} data-testid={`status-engine-${engine.id}`}>
              <span className={`dot dot-${status.mode === 'remote' ? 'unknown' : engine.chain}`} aria-hidden="true" />
              <b>{chainName(engine)}</b>{' '}
              {status.mode === 'remote'
                ? t('shell.status.engineOnRemote', { environment: engine.environment })
                : t('shell.status.engineChain', { environment: engine.environment, state: engine.chain })}
              {status.mode === 'embedded' && engine.funds && !engine.funds.low && (
                <span data-testid={`status-balance-${engine.id}`}> · {t('shell.status.balance', { balance: etherAmount(engine.funds.balance) })}</span>
              )}
            </span>
          ))}
          {status.mode === 'embedded' &&
            status.engines.map((engine) =>
              engine.funds?.low ? (
                <span key={`funds-${engine.id}`} className="status-item status-warning" role="status" data-testid={`status-funds-${engine.id}`} title={engine.funds.address}>
                  {lowFundsText(engine, engine.funds)}
                </span>
              ) : null,
            )}
          <span className="status-item" data-testid="status-keys">
            {status.mode === 'remote' ? t('shell.status.keysRemote') : status.keyStore ? t(KEY_STORE_LABEL[status.keyStore]) : t('shell.status.noKeyStore')}
          </span>
          {status.issuingOff && (
            // One sentence in the bar; the rest (what to install or set) in the tooltip, and read out to assistive technology.
            <span className="status-item status-warning" role="status" data-testid="status-issuing-off" title={status.issuingOff}>
              {t('shell.status.issuingOff', { reason: firstSentence(status.issuingOff)[0] })}
              {firstSentence(status.issuingOff)[1] && <span className="visually-hidden"> {firstSentence(status.issuingOff)[1]}</span>}
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
            <span>{taskLabel(task)}</span>
            <progress aria-label={taskLabel(task)} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
            <button type="button" className="link-button" aria-label={t('shell.task.cancelNamed', { task: taskLabel(task) })} onClick={() => void cancelTask(task.id)}>
              {t('common.cancel')}
            </button>
          </span>
        ))}
      </span>
    </footer>
  );
}
