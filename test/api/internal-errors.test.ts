/**
 * A failure of the server itself (the disk, a bug) is answered 500 `internal_error` with a
 * generic message — no path, no stack — and logged for the operator with its details, but
 * never with a token or a client secret.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, formOf, startApiFixture, type ApiFixture } from './api-fixture.js';

describe('internal errors', () => {
  let api: ApiFixture;
  const log: string[] = [];

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, log: (line) => log.push(line) });
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('hides what went wrong from the caller, and logs it without secrets', async () => {
    // The upload spool is replaced by a file: spooling an upload fails on the disk.
    const tmp = join(api.dataDir, 'tmp');
    const spool = readdirSync(tmp).find((name) => name.includes('-api-'))!;
    rmSync(join(tmp, spool), { recursive: true });
    writeFileSync(join(tmp, spool), 'not a directory');
    const spooled = await api.call('POST', '/files', { body: formOf([['ignore_duplicated', 'true']], { data: 'spooled first' }, true) });
    expectError(spooled, 'internal_error');
    expect(spooled.body.error.message).toBe('Internal error');

    // The store cannot take the file: the engine's own internal_error is hidden too.
    const content = 'cannot be stored';
    const hash = createHash('sha256').update(content).digest('hex');
    writeFileSync(join(api.dataDir, 'files', hash.slice(0, 2)), 'in the way');
    const stored = await api.call('POST', '/files', { body: formOf([], { data: content }) });
    expectError(stored, 'internal_error');
    expect(stored.body.error.message).toBe('Internal error');
    expect(stored.text).not.toContain(api.dataDir);

    expect(log.join('\n')).toContain('internal error on POST /api/files');
    expect(log.join('\n')).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    for (const secret of [api.a.token, api.a.clientSecret, api.b.token, api.b.clientSecret]) expect(log.join('\n')).not.toContain(secret);

    // The server goes on serving.
    expectResult(await api.call('GET', '/files'), 200);
  });
});
