import { useEffect } from 'react';
import type { Overview } from '../../common/ipc-contract.js';
import { JOB_STATUSES } from '../../common/wire-types.js';
import { useOverviewStore } from './overview-store.js';

/** The home screen: who issues, on which engines, and how much the service holds. */
export function OverviewView() {
  const state = useOverviewStore((s) => s.state);
  const load = useOverviewStore((s) => s.load);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="overview" aria-busy={state.status === 'loading'}>
      <div className="overview-toolbar">
        <h2>Overview</h2>
        <button type="button" onClick={() => void load()} disabled={state.status === 'loading'}>
          Refresh
        </button>
      </div>
      {state.status === 'error' && (
        <div className="error-panel" role="alert" data-testid="overview-error">
          <strong>Could not load the overview.</strong>
          <p>
            <code data-testid="overview-error-id">{state.error.id}</code> {state.error.message}
          </p>
        </div>
      )}
      {state.overview ? (
        <OverviewContent overview={state.overview} />
      ) : (
        state.status === 'loading' && <p className="muted">Loading…</p>
      )}
    </section>
  );
}

function OverviewContent({ overview }: { overview: Overview }) {
  const { partner, engines, counts } = overview;
  return (
    <>
      <div className="card">
        <h3>Partner</h3>
        {partner ? (
          <p className="partner-name" data-testid="partner-name">
            {partner.name}
          </p>
        ) : (
          <p className="notice" data-testid="no-partner">
            No partner yet: run <code>npm run cli -- partner add --name NAME</code>, then restart Proofdesk.
          </p>
        )}
      </div>

      <div className="card">
        <h3>Holdings</h3>
        <dl className="counts">
          <Count label="Files" value={counts.files} testId="count-files" />
          <Count label="Credentials" value={counts.credentials} testId="count-credentials" />
        </dl>
        <h4>Jobs</h4>
        <dl className="counts">
          {JOB_STATUSES.map((status) => (
            <Count key={status} label={status} value={counts.jobs[status]} testId={`count-jobs-${status}`} />
          ))}
        </dl>
      </div>

      <div className="card">
        <h3>Engines</h3>
        {engines.length === 0 ? (
          <p className="muted">No engines.</p>
        ) : (
          <table className="engines" data-testid="engines">
            <thead>
              <tr>
                <th>Engine</th>
                <th>Environment</th>
                <th>Chain id</th>
                <th>Confirmations</th>
              </tr>
            </thead>
            <tbody>
              {engines.map((engine) => (
                <tr key={engine.id}>
                  <td>
                    <code>{engine.id}</code>
                  </td>
                  <td>{engine.environment}</td>
                  <td>{engine.chain_id ?? '—'}</td>
                  <td>{engine.confirmations}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="count">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value.toLocaleString()}</dd>
    </div>
  );
}
