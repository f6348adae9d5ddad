import { describe, expect, it } from 'vitest';
import { errorIdOf as idOf } from '../../test/support/error-id.js';
import { IPC_ARGUMENT_VALIDATORS, IPC_CHANNELS, bridgeName } from '../ipc-contract.js';
import { APP_IPC } from './app.js';
import { JOBS_IPC } from './jobs.js';
import { RECORDS_IPC } from './records.js';

const UID = '0192f1c4-7b1e-7cc0-8b6a-0123456789ab';

describe('the IPC contract slices', () => {
  it('merges every slice; every channel has a validator and a bridge name', () => {
    for (const slice of [APP_IPC, RECORDS_IPC, JOBS_IPC]) {
      for (const channel of Object.keys(slice)) expect(IPC_CHANNELS).toContain(channel);
    }
    expect(bridgeName('records:editTags')).toBe('recordsEditTags');
    expect(new Set(IPC_CHANNELS.map(bridgeName)).size).toBe(IPC_CHANNELS.length);
  });

  it('records: refuses bad windows, selections and tag edits with the spec ids', () => {
    const v = IPC_ARGUMENT_VALIDATORS;
    expect(idOf(() => v['records:window']([{ filter: {}, offset: -1, limit: 10 }]))).toBe('wrong_pagination_argument');
    expect(idOf(() => v['records:window']([{ filter: {}, offset: 0, limit: 100_000 }]))).toBe('wrong_pagination_argument');
    expect(idOf(() => v['records:window']([{ filter: { andTags: ['a b'] }, offset: 0, limit: 10 }]))).toBe('invalid_tag');
    expect(idOf(() => v['records:window']([{ filter: { evil: 1 }, offset: 0, limit: 10 }]))).toBe('invalid_value');
    expect(idOf(() => v['records:window']([{ filter: {}, offset: 0, limit: 10 }, 'extra']))).toBe('invalid_value');
    expect(idOf(() => v['records:count']([{ kind: 'uids', uids: ['x'] }]))).toBe('invalid_value');
    expect(idOf(() => v['records:count']([{ kind: 'uids', uids: [] }]))).toBe('empty_credential_list');
    expect(idOf(() => v['records:editTags']([{ kind: 'uids', uids: [UID] }, { mode: 'add', tags: ['ok-tag', 'ok-tag'] }]))).toBe('duplicated_tags');
    expect(idOf(() => v['records:editTags']([{ kind: 'filter', filter: {} }, { mode: 'explode' }]))).toBe('invalid_value');
    expect(idOf(() => v['records:schedule']([{ kind: 'filter', filter: {} }, []]))).toBe('invalid_value');
    expect(idOf(() => v['records:tags'](['cla', 0]))).toBe('invalid_value');
    expect(idOf(() => v['records:metadataKeys']([0]))).toBe('invalid_value');
    expect(idOf(() => v['records:metadataKeys'](['10']))).toBe('invalid_value');
    expect(v['records:editTags']([{ kind: 'filter', filter: { andTags: ['class-2026'] } }, { mode: 'remove', tag: 'honours' }])).toEqual([
      { kind: 'filter', filter: { andTags: ['class-2026'] } },
      { mode: 'remove', tag: 'honours' },
    ]);
  });

  it('jobs: refuses bad listings, tags and export requests with the spec ids', () => {
    const v = IPC_ARGUMENT_VALIDATORS;
    expect(idOf(() => v['jobs:list']([{ offset: 0, limit: 0 }]))).toBe('invalid_value');
    expect(idOf(() => v['jobs:list']([{ offset: 0, limit: 10, status: 'done' }]))).toBe('invalid_value');
    expect(idOf(() => v['jobs:list']([{ offset: 0, limit: 10, sql: 'x' }]))).toBe('invalid_value');
    expect(v['jobs:list']([{ offset: 0, limit: 10, status: 'finished' }])).toEqual([{ offset: 0, limit: 10, status: 'finished' }]);
    expect(idOf(() => v['jobs:addTags']([UID, ['no']]))).toBe('invalid_tag');
    expect(idOf(() => v['jobs:exportProofs']([{ source: { kind: 'job', jobUid: UID } }]))).toBe('invalid_value');
    expect(idOf(() => v['jobs:exportProofs']([{ folder: '/tmp/x', source: { kind: 'everything' } }]))).toBe('invalid_value');
    expect(idOf(() => v['jobs:exportProofs']([{ folder: '/tmp/x', source: { kind: 'job', jobUid: UID }, format: 'pdf' }]))).toBe('invalid_value');
    expect(v['jobs:exportProofs']([{ folder: '/tmp/x', source: { kind: 'job', jobUid: UID }, format: 'both' }])).toEqual([{ folder: '/tmp/x', source: { kind: 'job', jobUid: UID }, format: 'both' }]);
    expect(idOf(() => v['jobs:nextIssuing'](['x']))).toBe('invalid_value');
    expect(idOf(() => v['app:switchPartner']([]))).toBe('invalid_value');
    expect(idOf(() => v['tasks:cancel']([42]))).toBe('invalid_value');
  });
});
