/**
 * What a compromised or buggy renderer sends to the records, list export, staging and CSV
 * import channels, taken the way both transports take it (invokeIpcHandler: the contract's
 * schemas, then the handler) on a real engine: refused with the spec's id before the handler
 * runs, so no credential, tag, task or file changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import type { Credential } from '../../../common/wire-types.js';
import { makeTempDir, openEngineWithPartner, type EngineFixture, type TestPartner } from '../../../test/support/engine-fixture.js';
import { taskEnded } from '../../../test/support/task-ended.js';
import { createAppContext, type AppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';
import type { IpcChannel } from '../../../common/ipc-contract.js';

let fixture: EngineFixture;
let partner: TestPartner;
let ctx: AppContext;
let handlers: IpcHandlers;
let credentials: Credential[];

beforeEach(async () => {
  ({ fixture, partner } = openEngineWithPartner());
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  handlers = createIpcHandlers(ctx);
  await partner.service.createCredentials([
    { title: 'Diploma', metadata: { grade: 'A' }, tags: ['class-2026'] },
    { title: 'Transcript', metadata: { grade: 'B' }, tags: ['class-2026'] },
  ]);
  credentials = (await partner.service.listCredentials({ per_page: 0 })).items;
});
afterEach(() => fixture.close());

/** The spec's id a call is refused with ("accepted" when it is not). */
async function refusal(channel: IpcChannel, args: unknown[]): Promise<string> {
  return invokeIpcHandler(handlers, channel, args).then(
    () => 'accepted',
    (error: unknown) => (isServiceError(error) ? error.id : `not a ServiceError: ${String(error)}`),
  );
}

/** Nothing changed: the same credentials with the same tags, and no task was started. */
async function expectUnchanged(): Promise<void> {
  expect((await partner.service.listCredentials({ per_page: 0 })).items).toEqual(credentials);
  expect(ctx.tasks.list()).toEqual([]);
}

describe('arguments refused before a handler runs', () => {
  it('records: a bad window, selection, tag edit or engine list', async () => {
    const [a, b] = credentials.map((c) => c.uid);
    expect(await refusal('records:window', [{ filter: {}, sort: { by: 'expiry_date' }, offset: 0, limit: 10 }])).toBe('wrong_pagination_argument');
    expect(await refusal('records:window', [{ filter: {}, offset: 0 }])).toBe('wrong_pagination_argument');
    expect(await refusal('records:editTags', [{ kind: 'uids', uids: [] }, { mode: 'add', tags: ['honours'] }])).toBe('empty_credential_list');
    expect(await refusal('records:editTags', [{ kind: 'uids', uids: [a, 'not-a-uid'] }, { mode: 'add', tags: ['honours'] }])).toBe('invalid_value');
    expect(await refusal('records:editTags', [{ kind: 'filter', filter: {} }, { mode: 'replace', tags: ['honours', 'honours'] }])).toBe('duplicated_tags');
    expect(await refusal('records:editTags', [{ kind: 'filter', filter: { andTags: ['no'] } }, { mode: 'remove', tag: 'class-2026' }])).toBe('invalid_tag');
    const range = { from: 0, to: 1, fromUid: a, toUid: b };
    expect(await refusal('records:editTags', [{ kind: 'ranges', filter: {}, sort: null, ranges: [range, range] }, { mode: 'remove', tag: 'class-2026' }])).toBe('invalid_value');
    expect(await refusal('records:schedule', [{ kind: 'uids', uids: [a] }, []])).toBe('invalid_value');
    expect(await refusal('records:unschedule', [{ kind: 'everything' }, 'local'])).toBe('invalid_value');
    await expectUnchanged();
    // Well formed, the same edit does change the records: nothing was refused for want of a handler.
    const task = await invokeIpcHandler(handlers, 'records:editTags', [{ kind: 'uids', uids: [a!.toUpperCase()] }, { mode: 'add', tags: ['honours'] }]);
    expect((await taskEnded(ctx.events, ctx.tasks, task.id)).state).toBe('done');
    expect((await partner.service.getCredential(a!)).tags).toEqual(['class-2026', 'honours']);
  });

  it('list export: a bad list, format, column or sort starts no export', async () => {
    expect(await refusal('listExport:start', [{ list: 'records', format: 'pdf', columns: ['title'] }])).toBe('invalid_value');
    expect(await refusal('listExport:start', [{ list: 'records', format: 'csv', columns: ['title', 'title'] }])).toBe('invalid_value');
    expect(await refusal('listExport:start', [{ list: 'records', format: 'csv', columns: ['password'] }])).toBe('invalid_value');
    expect(await refusal('listExport:start', [{ list: 'records', format: 'csv', columns: ['title'], sort: { by: 'uid', order: 'asc' } }])).toBe('wrong_pagination_argument');
    expect(await refusal('listExport:start', [{ list: 'jobs', format: 'csv', status: 'done' }])).toBe('invalid_value');
    expect(await refusal('listExport:start', [{ list: 'users', format: 'csv' }])).toBe('invalid_value');
    await expectUnchanged();
  });

  it('staging: bad paths or a bad create request create nothing', async () => {
    const row = { key: 'k1', file: null, title: 'Certificate', metadata: { grade: 'A' }, tags: [], expiry_date: null, links: [] };
    expect(await refusal('staging:addPaths', [[]])).toBe('invalid_value');
    expect(await refusal('staging:addPaths', ['/tmp'])).toBe('invalid_value');
    expect(await refusal('staging:create', [{ rows: [row, { ...row, title: 'Another' }], engine: null, allow_duplicates: false }])).toBe('invalid_value');
    expect(await refusal('staging:create', [{ rows: [{ ...row, metadata: 'grade=A' }], engine: null, allow_duplicates: false }])).toBe('invalid_value');
    expect(await refusal('staging:create', [{ rows: [row], engine: 'local', allow_duplicates: 'yes' }])).toBe('invalid_value');
    expect(await refusal('staging:create', [{ rows: [{ ...row, file: { path: '/etc/passwd' } }], engine: null, allow_duplicates: false }])).toBe('invalid_value');
    await expectUnchanged();
  });

  it('CSV import: a bad mapping, edit or option imports nothing and leaves the file as it was', async () => {
    const path = join(makeTempDir('proofdesk-refused-csv-'), 'results.csv');
    const text = 'title,grade\nCertificate,A\n';
    writeFileSync(path, text);
    const mapping = { title: 'title', tags: null, expiry_date: null, key: null, link: null, metadata: [{ column: 'grade', key: 'grade' }] };
    expect(await refusal('csvImport:run', [path, { ...mapping, tags: undefined }, { engine: null, rows: null, edits: [] }])).toBe('invalid_value');
    expect(await refusal('csvImport:run', [path, mapping, { engine: null, rows: [0], edits: [] }])).toBe('invalid_value');
    expect(await refusal('csvImport:run', [path, mapping, { engine: null, rows: null, edits: [{ row: 1, column: 'title', value: 7 }] }])).toBe('invalid_value');
    expect(await refusal('csvImport:run', [path, mapping, { engine: '', rows: null, edits: [] }])).toBe('invalid_value');
    expect(await refusal('csvImport:preview', [path, mapping])).toBe('invalid_value');
    await expectUnchanged();
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});
