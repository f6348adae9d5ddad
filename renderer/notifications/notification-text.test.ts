import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../common/tasks.js';
import { jobShortName } from '../jobs/job-text.js';
import { jobNotification, refusedNotification, taskNotification } from './notification-text.js';

const UID = '01932c4e-8a7b-7000-8000-0000abcd1234';

describe('notification texts', () => {
  it('names a job that finished or failed by what it holds, by its short uid when nothing is known, and tells of nothing else', () => {
    expect(jobNotification(UID, 'Diploma of Ada and 11 more', 'Local chain', 'finished')).toEqual({ title: 'Diploma of Ada and 11 more: issued', body: 'Issued on Local chain: its proofs can be exported.' });
    expect(jobNotification(UID, null, 'Sepolia', 'failed')).toEqual({ title: 'Job abcd1234: failed', body: 'Issuing on Sepolia failed; its credentials can be scheduled again.' });
    expect(jobNotification(UID, 'Diploma of Ada', 'Local chain', 'started')).toBeNull();
    expect(jobNotification(UID, 'Diploma of Ada', 'Local chain', 'unconfirmed')).toBeNull();
  });

  it('names a job by its tags, else its first title and how many more', () => {
    const summary = (titles: string[], credentials: number) => ({ credentials, titles, finality: null });
    expect(jobShortName({ tags: [] }, summary(['Diploma of Ada', 'Diploma of Ben'], 12))).toBe('Diploma of Ada and 11 more');
    expect(jobShortName({ tags: [] }, summary(['Diploma of Ada'], 1))).toBe('Diploma of Ada');
    expect(jobShortName({ tags: ['msc-2026', 'honours'] }, summary(['Diploma of Ada'], 1))).toBe('msc-2026, honours');
    expect(jobShortName({ tags: [] }, summary([], 0))).toBe('Empty job');
    expect(jobShortName({ tags: [] }, undefined)).toBeNull();
  });

  it('counts refused files in words', () => {
    expect(refusedNotification({ path: '/in' }, 1).body).toBe('1 file in /in was refused: see Failed files.');
    expect(refusedNotification({ path: '/in' }, 1200).body).toBe('1,200 files in /in were refused: see Failed files.');
  });

  it('tells of background work that ended, with the error id of a failure', () => {
    const task = (state: TaskInfo['state'], error?: TaskInfo['error']): TaskInfo => ({ id: 't', kind: 'schedule', label: 'Scheduling 5 credentials', done: 5, total: 5, state, started_at: '', finished_at: null, ...(error ? { error } : {}) });
    expect(taskNotification(task('done'))).toEqual({ title: 'Scheduling 5 credentials', body: 'Done.' });
    expect(taskNotification(task('failed', { id: 'invalid_value', message: 'No such engine' }))?.body).toBe('Failed: No such engine (invalid_value)');
    expect(taskNotification(task('running'))).toBeNull();
    expect(taskNotification(task('cancelled'))).toBeNull();
  });
});
