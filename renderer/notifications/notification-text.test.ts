import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../common/tasks.js';
import { jobNotification, refusedNotification, taskNotification } from './notification-text.js';

const UID = '01932c4e-8a7b-7000-8000-0000abcd1234';

describe('notification texts', () => {
  it('tells of a job that finished or failed, and of nothing else', () => {
    expect(jobNotification(UID, 'local', 'finished')).toEqual({ title: 'Job finished', body: 'Job abcd1234 on local is finished: its proofs can be exported.' });
    expect(jobNotification(UID, 'sepolia', 'failed')?.body).toBe('Job abcd1234 on sepolia failed; its credentials can be scheduled again.');
    expect(jobNotification(UID, 'local', 'started')).toBeNull();
    expect(jobNotification(UID, 'local', 'unconfirmed')).toBeNull();
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
