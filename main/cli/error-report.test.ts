import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { SecretStoreUnavailableError } from '../secrets/errors.js';
import { EXIT, reportError } from './error-report.js';

/** A real SQLITE_FULL: a database allowed only a few pages. */
function sqliteFull(): unknown {
  const db = new Database(':memory:');
  try {
    db.pragma('max_page_count = 3');
    db.exec('CREATE TABLE t (x BLOB)');
    for (;;) db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(4096));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
}

describe('reportError', () => {
  it('calls a full disk (SQLITE_FULL, ENOSPC) what it is, exit 3, without a stack trace', () => {
    const full = reportError(sqliteFull());
    expect(full).toEqual({ message: expect.stringMatching(/^The disk is full: free some space .*\(SQLITE_FULL\)\.$/), code: EXIT.environment });
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/data/x' });
    expect(reportError(enospc).message).toBe('The disk is full (/data/x): free some space and run the command again; nothing was lost (ENOSPC).');
  });

  it('says the keychain cannot be opened, exit 3', () => {
    const report = reportError(new SecretStoreUnavailableError('No keychain here. Set PROOFDESK_PASSPHRASE.'));
    expect(report).toEqual({ message: "The Partners' keys cannot be opened: No keychain here. Set PROOFDESK_PASSPHRASE.", code: EXIT.environment });
  });

  it('gives a refused call its id and status, exit 1', () => {
    expect(reportError(new ServiceError('missing_job', 'No job x'))).toEqual({ message: 'error missing_job (404): No job x', code: EXIT.refused });
  });

  it('a remote service that cannot be reached is the service away, exit 3, with its id and status', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const away = new ServiceError('try_again_later', 'The service at http://127.0.0.1:9/api/engines cannot be reached: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)', { cause: new TypeError('fetch failed', { cause: refused }) });
    expect(reportError(away)).toEqual({ message: `error try_again_later (503): ${away.message}`, code: EXIT.environment });
    // An answer saying "later" is still the service's refusal.
    expect(reportError(new ServiceError('try_again_later', 'Busy')).code).toBe(EXIT.refused);
  });

  it('reports a bug as internal, with the stack only on request', () => {
    const bug = new TypeError('x is undefined');
    expect(reportError(bug, {}).message).not.toContain(' at ');
    expect(reportError(bug, {}).code).toBe(EXIT.internal);
    expect(reportError(bug, { PROOFDESK_DEBUG: '1' }).message).toContain(' at ');
  });
});
