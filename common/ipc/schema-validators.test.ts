/**
 * The channels whose arguments are checked from TypeBox schemas (common/ipc/slice.ts argsOf):
 * a wrong shape is `invalid_value` with a message naming the channel, the argument and the
 * place in it; a right one comes back as it was sent.
 */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { IPC_ARGUMENT_VALIDATORS as v } from '../ipc-contract.js';

const UID = '0192f1c4-7b1e-7cc0-8b6a-0123456789ab';
const HASH = 'AB'.repeat(32);

/** The ServiceError a call throws (fails when it throws none). */
function refusal(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected the arguments to be refused');
}

describe('IPC arguments checked from schemas', () => {
  it('jobs: a listing request of the wrong shape names the field', () => {
    const offset = refusal(() => v['jobs:list']([{ offset: '0', limit: 10 }]));
    expect(offset.id).toBe('invalid_value');
    expect(offset.message).toMatch(/^jobs:list: request at offset: Expected integer/);
    expect(refusal(() => v['jobs:list']([{ offset: 0, limit: 10, sort: { by: 'title', order: 'asc' } }])).message).toMatch(/^jobs:list: request at sort\.by/);
    expect(refusal(() => v['jobs:get']([''])).message).toMatch(/^jobs:get: jobUid:/);
    expect(refusal(() => v['jobs:issueNow']([])).message).toBe('jobs:issueNow takes 1 argument');
    expect(refusal(() => v['jobs:addTags']([7, ['good-tag']])).id).toBe('invalid_value');
    expect(v['jobs:list']([{ offset: 0, limit: 10, sort: { by: 'ready_date', order: 'desc' } }])).toEqual([{ offset: 0, limit: 10, sort: { by: 'ready_date', order: 'desc' } }]);
    expect(v['jobs:exportProofs']([{ folder: '/out', source: { kind: 'job', jobUid: UID }, extra: 1 }])).toEqual([{ folder: '/out', source: { kind: 'job', jobUid: UID } }]);
  });

  it('app: a notification or command of the wrong shape names it', () => {
    expect(refusal(() => v['app:notify']([{ title: 'Done', body: 42 }])).message).toMatch(/^app:notify: notification at body: Expected string/);
    expect(refusal(() => v['app:commandsEnabled']([[1]])).message).toMatch(/^app:commandsEnabled: enabled at 0:/);
    expect(refusal(() => v['tasks:cancel']([{ id: 'task' }])).id).toBe('invalid_value');
    expect(refusal(() => v['overview:get'](['x'])).message).toBe('overview:get takes no arguments');
    expect(v['app:notify']([{ title: 'Done', body: 'All sent', icon: 'x' }])).toEqual([{ title: 'Done', body: 'All sent' }]);
  });

  it('activity: a query of the wrong shape names the field; filters pass on for the service to check', () => {
    expect(refusal(() => v['activity:list']([{ page: 1, per_page: 5000 }])).message).toMatch(/^activity:list: query at per_page:/);
    expect(refusal(() => v['activity:list']([{ page: 1, per_page: 10, kind: ['issued'] }])).message).toMatch(/^activity:list: query at kind:/);
    expect(refusal(() => v['activity:list']([{ page: 1, per_page: 10, sql: 'drop' }])).id).toBe('invalid_value');
    expect(v['activity:list']([{ page: 2, per_page: 10, order: 'desc', kind: 'anything' }])).toEqual([{ page: 2, per_page: 10, order: 'desc', kind: 'anything' }]);
  });

  it('detail: a uid or file hash of the wrong shape names the argument', () => {
    expect(refusal(() => v['detail:get'](['not-a-uid'])).message).toMatch(/^detail:get: uid:/);
    expect(refusal(() => v['detail:revoke']([UID, ''])).message).toMatch(/^detail:revoke: engine:/);
    expect(refusal(() => v['detail:openOriginal']([UID, 'abc'])).message).toMatch(/^detail:openOriginal: fileHash:/);
    expect(v['detail:openOriginal']([UID.toUpperCase(), HASH])).toEqual([UID.toUpperCase(), HASH.toLowerCase()]);
  });

  it('settings: an engine or connection of the wrong shape names the field, never quoting a secret', () => {
    const engine = { id: 'sepolia', rpc_url: 'https://rpc.example', chain_id: 11155111, confirmations: 2, environment: 'live' };
    expect(refusal(() => v['settings:addEngine']([{ ...engine, chain_id: '11155111' }])).message).toMatch(/^settings:addEngine: engine at chain_id: Expected integer/);
    expect(refusal(() => v['settings:addEngine']([{ ...engine, environment: 'prod' }])).message).toMatch(/^settings:addEngine: engine at environment:/);
    expect(v['settings:addEngine']([{ ...engine, explorer_tx_url: '', explorer_address_url: null }])).toEqual([{ ...engine, explorer_tx_url: undefined, explorer_address_url: undefined }]);
    const secret = 's3cret-'.repeat(200);
    const refused = refusal(() => v['settings:saveRemote']([{ base_url: 'https://api.example/api', client_id: 'c', client_secret: secret }]));
    expect(refused.message).toMatch(/^settings:saveRemote: connection at client_secret:/);
    expect(refused.message).not.toContain('s3cret');
    expect(v['settings:testRemote']([{ base_url: 'https://a.example/api', auth_url: '', client_id: 'c', client_secret: 'x' }])).toEqual([
      { base_url: 'https://a.example/api', client_id: 'c', client_secret: 'x' },
    ]);
    expect(refusal(() => v['settings:unlockKeys']([42])).id).toBe('invalid_value');
  });

  it('verify: paths, a row window or an endpoint of the wrong shape names it', () => {
    expect(refusal(() => v['verify:start']([[]])).message).toMatch(/^verify:start: paths:/);
    expect(refusal(() => v['verify:start']([['/a.proof.json', 7]])).message).toMatch(/^verify:start: paths at 1:/);
    expect(refusal(() => v['verify:rows'](['run', { offset: 0, limit: 10, failures_only: 'yes' }])).message).toMatch(/^verify:rows: query at failures_only:/);
    expect(refusal(() => v['verify:setEndpoint'](['Sepolia!', null])).message).toMatch(/^verify:setEndpoint: engine:/);
    expect(refusal(() => v['verify:setEndpoint'](['sepolia', 'ftp://x'])).message).toContain('is not an endpoint');
    expect(refusal(() => v['verify:setNetwork'](['on'])).id).toBe('invalid_value');
    expect(v['verify:rows'](['run', { offset: 0, limit: 10, failures_only: true, more: 1 }])).toEqual(['run', { offset: 0, limit: 10, failures_only: true }]);
    expect(v['verify:setEndpoint'](['sepolia', 'https://rpc.example'])).toEqual(['sepolia', 'https://rpc.example']);
  });

  it('watch folders: a folder or failed file of the wrong shape names the field', () => {
    expect(refusal(() => v['watchFolders:add']([{ path: '/in', recursive: 'yes' }])).message).toMatch(/^watchFolders:add: the folder at recursive:/);
    expect(refusal(() => v['watchFolders:add']([{ path: 42 }])).message).toMatch(/^watchFolders:add: the folder at path:/);
    expect(refusal(() => v['watchFolders:add']([{ path: '/in', engine: '' }])).id).toBe('invalid_value');
    expect(refusal(() => v['watchFolders:retry'](['id', { path: 'a.pdf', failedPath: 7 }])).message).toMatch(/^watchFolders:retry: file at failedPath:/);
    expect(v['watchFolders:add']([{ path: '/in', engine: null, metadata: null, recursive: null, allowDuplicates: true }])).toEqual([{ path: '/in', allowDuplicates: true }]);
  });

  it('records: a window, selection or tag edit of the wrong shape names the place; sorts and positions carry the pagination id', () => {
    const sort = refusal(() => v['records:window']([{ filter: null, sort: { by: 'expiry', order: 'asc' }, offset: 0, limit: 10 }]));
    expect([sort.id, sort.message]).toEqual(['wrong_pagination_argument', expect.stringMatching(/^records:window: request at sort\.by:/)]);
    expect(refusal(() => v['records:window']([{ offset: 0, limit: 10, filter: { state: { engine: 'local', states: ['lost'] } } }])).message).toMatch(/^records:window: request at filter\.state\.states\.0:/);
    expect(refusal(() => v['records:count']([{ kind: 'uids', uids: [UID, 'x'] }])).message).toMatch(/^records:count: selection at uids\.1:/);
    expect(refusal(() => v['records:editTags']([{ kind: 'uids', uids: [UID] }, { mode: 'remove', tags: ['a-tag'] }])).message).toMatch(/^records:editTags: edit at tag: Expected required property/);
    expect(v['records:window']([{ filter: { andTags: ['a-tag', 'a-tag'], uploadedFrom: '', search: ' ' }, sort: { by: 'title', order: null }, offset: 5, limit: 10 }])).toEqual([
      { filter: { andTags: ['a-tag'] }, sort: { by: 'title', order: 'asc' }, offset: 5, limit: 10 },
    ]);
    expect(v['records:schedule']([{ kind: 'filter', filter: null, except: [UID.toUpperCase()] }, ['local', 'local']])).toEqual([{ kind: 'filter', filter: {}, except: [UID] }, ['local']]);
  });

  it('list export: a request of the wrong shape names the field of its list', () => {
    expect(refusal(() => v['listExport:start']([{ list: 'records', format: 'csv', columns: ['title', 'state:'] }])).message).toMatch(/^listExport:start: request at columns\.1:/);
    expect(refusal(() => v['listExport:start']([{ list: 'jobs', format: 'csv', sort: { by: 'created_date' } }])).message).toMatch(/^listExport:start: request at sort\.order:/);
    expect(v['listExport:start']([{ list: 'jobs', format: 'xlsx', status: null, sort: null }])).toEqual([{ list: 'jobs', format: 'xlsx' }]);
    expect(v['listExport:start']([{ list: 'records', format: 'csv', columns: ['uid', 'state:local'] }])).toEqual([
      { list: 'records', format: 'csv', filter: {}, sort: { by: 'upload_date', order: 'asc' }, columns: ['uid', 'state:local'] },
    ]);
  });

  it('staging and CSV import: a row, mapping or edit of the wrong shape names the place', () => {
    const row = { key: 'a', file: null, title: 'T', metadata: {}, tags: [], expiry_date: null, links: [] };
    expect(refusal(() => v['staging:create']([{ rows: [row, { ...row, links: [''] }], engine: null, allow_duplicates: false }])).message).toMatch(/^staging:create: request at rows\.1\.links\.0:/);
    expect(refusal(() => v['staging:create']([{ rows: [row, row], engine: null, allow_duplicates: false }])).message).toMatch(/^staging:create: request at rows\.1\.key:/);
    const mapping = { title: 'title', tags: null, expiry_date: null, key: null, link: null, metadata: [{ column: 'grade' }] };
    expect(refusal(() => v['csvImport:preview'](['/a.csv', mapping, []])).message).toMatch(/^csvImport:preview: mapping at metadata\.0\.key:/);
    expect(refusal(() => v['csvImport:run'](['/a.csv', { ...mapping, metadata: [] }, { engine: null, rows: null, edits: [{ row: 2, column: 'grade' }] }])).message).toMatch(
      /^csvImport:run: options at edits\.0\.value:/,
    );
  });
});
