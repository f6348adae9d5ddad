/** Telling a full disk from other errors, and telling it once. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { DISK_FULL_REPORT_MS, DiskFullReporter, fullPath, isDiskFull } from './disk-full.js';
import { formatBytes } from '../durable/free-space.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'proofdesk-full-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('isDiskFull', () => {
  it('ENOSPC, EDQUOT, SQLITE_FULL, and the service saying so in its message', () => {
    expect(isDiskFull(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('x'), { code: 'EDQUOT' }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isDiskFull(new ServiceError('no_file_on_payload', 'Could not read the uploaded file: ENOSPC'))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(false);
    expect(isDiskFull(new ServiceError('invalid_value', 'Invalid tag'))).toBe(false);
  });

  it('the full path is the folder of the file an error names, else the data directory', () => {
    expect(fullPath(Object.assign(new Error('x'), { code: 'ENOSPC', path: '/out/a.proof.json' }), '/data')).toBe('/out');
    expect(fullPath(new Error('x'), '/data')).toBe('/data');
  });
});

describe('DiskFullReporter', () => {
  it('one message per disk, with the path and what is needed, again only after a while', () => {
    const told: string[] = [];
    const reporter = new DiskFullReporter((m) => told.push(m));
    const now = Date.now();
    for (let i = 0; i < 100; i++) reporter.report(join(dir, `f${i}`), 2 * 1024 * 1024, now + i);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(dir);
    expect(told[0]).toContain('2.0 MB more is needed');
    reporter.report(dir, 1, now + DISK_FULL_REPORT_MS + 1);
    expect(told).toHaveLength(2);
  });

  it('says when there is room again', () => {
    const told: string[] = [];
    const reporter = new DiskFullReporter((m) => told.push(m));
    reporter.report(dir, 1);
    reporter.check(); // a temporary folder has more than a byte free
    expect(told[1]).toContain('space on the disk');
    expect(reporter.any).toBe(false);
  });

  it('while a disk is known full and short of what is needed, a write fails at once instead of trying', () => {
    const reporter = new DiskFullReporter(() => undefined);
    expect(() => reporter.assertRoom(join(dir, 'a.proof.json'))).not.toThrow();
    reporter.report(dir, Number.MAX_SAFE_INTEGER);
    expect(() => reporter.assertRoom(join(dir, 'a.proof.json'))).toThrow(expect.objectContaining({ code: 'ENOSPC', path: join(dir, 'a.proof.json') }));
  });

  it('formats sizes', () => {
    expect([formatBytes(87), formatBytes(4096), formatBytes(5 * 1024 * 1024)]).toEqual(['87 B', '4 KB', '5.0 MB']);
  });
});
