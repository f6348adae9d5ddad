import { afterEach, describe, expect, it } from 'vitest';
import type { AppStatus, EngineStatus } from '../../common/ipc/app.js';
import type { JobSummary } from '../../common/ipc/jobs.js';
import type { Job } from '../../common/wire-types.js';
import { useI18nStore } from '../i18n/i18n-store.js';
import { issueNowBlocked, jobFailure, jobLabel, jobName, jobProgress } from './job-text.js';

const NOW = Date.parse('2026-11-26T09:00:00');

function job(patch: Partial<Job>): Job {
  return {
    uid: '0193a1c4-0000-7000-8000-000000000001',
    partner: { id: 'p', name: 'Acme' },
    chain: 'local',
    tags: [],
    status: 'scheduled',
    created_date: '2026-11-26T08:00:00Z',
    start_date: null,
    issued_date: null,
    finished_date: null,
    failed_date: null,
    scheduled_date: null,
    ...patch,
  };
}

const summary = (credentials: number, titles: string[], finality: JobSummary['finality'] = null): JobSummary => ({ credentials, titles, finality });

afterEach(() => useI18nStore.getState().choose('en'));

describe('a job in words', () => {
  it('is named by its tags, else its first titles, with its credential count', () => {
    expect(jobName(job({ tags: ['Diplomas 2026'] }), summary(120, ['A', 'B']))).toBe('Diplomas 2026 (120 credentials)');
    expect(jobName(job({}), summary(120, ['Diploma 001', 'Diploma 002']))).toBe('Diploma 001, Diploma 002 … (120 credentials)');
    expect(jobName(job({}), summary(1, ['Diploma 001']))).toBe('Diploma 001 (1 credential)');
    expect(jobName(job({}), summary(0, []))).toBe('Empty job');
    // In the table, beside its Credentials column: the name alone.
    expect(jobLabel(job({}), summary(120, ['Diploma 001', 'Diploma 002']))).toBe('Diploma 001, Diploma 002 …');
    expect(jobLabel(job({ tags: ['diplomas-2026'] }), summary(120, ['A', 'B']))).toBe('diplomas-2026');
    useI18nStore.getState().choose('de');
    expect(jobName(job({ tags: ['Zeugnisse'] }), summary(2, ['A', 'B']))).toBe('Zeugnisse (2 Nachweise)');
  });

  it('says when a scheduled job is due: the time today, the weekday this week, else the day', () => {
    const due = new Date(NOW + 5 * 3_600_000).toISOString();
    expect(jobProgress(job({ scheduled_date: due }), undefined, NOW, 'en')).toBe(`scheduled for ${new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(new Date(due))}`);
    const friday = new Date(NOW + 26 * 3_600_000).toISOString();
    expect(jobProgress(job({ scheduled_date: friday }), undefined, NOW, 'en')).toBe(`scheduled for ${new Intl.DateTimeFormat('en', { weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(new Date(friday))}`);
    expect(jobProgress(job({ scheduled_date: '2026-12-24T12:00:00' }), undefined, NOW, 'en')).toBe('scheduled for Dec 24, 2026');
    expect(jobProgress(job({ scheduled_date: new Date(NOW - 1000).toISOString() }), undefined, NOW)).toBe('due now');
  });

  it('says what a job waits for rather than the engine note', () => {
    expect(jobProgress(job({ waiting: 'waiting for funds: insufficient funds for gas * price + value' }), undefined, NOW)).toBe('waiting for funds');
    expect(jobProgress(job({ status: 'started', waiting: 'waiting: the RPC endpoint of local has not answered for 31 s' }), undefined, NOW)).toBe('waiting for the chain');
    expect(jobProgress(job({ status: 'started' }), undefined, NOW)).toBe('sending to the chain');
  });

  it('counts confirmations towards final', () => {
    expect(jobProgress(job({ status: 'unconfirmed' }), summary(3, [], { confirmations: 8, required: 12 }), NOW)).toBe('8 of 12 confirmations');
    expect(jobProgress(job({ status: 'unconfirmed' }), summary(3, [], { confirmations: 2, required: null }), NOW)).toBe('2 confirmations, waiting for the chain to finalize');
    useI18nStore.getState().choose('de');
    expect(jobProgress(job({ status: 'unconfirmed' }), summary(3, [], { confirmations: 8, required: 12 }), NOW)).toBe('8 von 12 Bestätigungen');
  });

  it('says what failed, without a transaction hash', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    expect(jobFailure(job({ status: 'failed', failure_reason: `The issuing transaction ${hash} was dropped` }))).toBe('the chain lost its transaction');
    expect(jobFailure(job({ status: 'failed', failure_reason: `The issuing transaction ${hash} reverted when the chain re-included it` }))).toBe('the chain refused its transaction');
    expect(jobFailure(job({ status: 'failed', failure_reason: `Signing failed for ${hash}` }))).toBe('Signing failed for …');
    expect(jobFailure(job({ status: 'finished' }))).toBe('—');
  });
});

describe('Issue now', () => {
  const engine = (patch: Partial<EngineStatus>): EngineStatus => ({ id: 'local', chain: 'connected', detail: null, funds: null, ...patch }) as EngineStatus;
  const status = (patch: Partial<AppStatus>, engines: EngineStatus[]): AppStatus => ({ issuingOff: null, engines, ...patch }) as AppStatus;

  it('is off with the reason while the chain is unreachable, issuing is off, the account is empty or the job is', () => {
    expect(issueNowBlocked(job({}), summary(3, []), status({}, [engine({})]))).toBeNull();
    expect(issueNowBlocked(job({}), summary(3, []), status({}, [engine({ chain: 'unreachable' })]))).toMatch(/chain cannot be reached/);
    expect(issueNowBlocked(job({}), summary(3, []), status({ issuingOff: 'no keychain' }, [engine({})]))).toMatch(/issuing is off/);
    expect(issueNowBlocked(job({}), summary(3, []), status({}, [engine({ funds: { address: '0x1', balance: '0', job_cost: '0.001', jobs_covered: 0, low: true } })]))).toMatch(/cannot pay/);
    expect(issueNowBlocked(job({}), summary(0, []), status({}, [engine({})]))).toMatch(/holds no credentials/);
  });

  it("over a remote service leaves it to the service: this machine's chain and keys do not count", () => {
    const remote = status({ mode: 'remote', issuingOff: 'no keychain' }, [engine({ chain: 'unreachable' })]);
    expect(issueNowBlocked(job({}), summary(3, []), remote)).toBeNull();
    expect(issueNowBlocked(job({}), summary(0, []), remote)).toMatch(/holds no credentials/);
  });
});
