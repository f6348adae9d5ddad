/**
 * The offline checks of verifying many proofs, on worker threads (verify-offline-pool.ts): each
 * proof's outcome, verified through verifyChecked, gives what verifyProof gives for it alone —
 * for proofs that pass, tampered ones (certificate, Merkle path, signature), ones that are not
 * proofs, and files that cannot be read. No chain: the chain steps are pending alike.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import { checkOffline, checksOf, type OfflineOutcome } from '../../main/engine/proofs/verify-offline.js';
import { borrowOfflinePool, OfflinePool, warmOfflinePool } from '../../main/engine/proofs/verify-offline-pool.js';
import { openVerifyingRun } from '../../main/engine/proofs/verify-many.js';
import { verifyChecked, verifyProof } from '../../main/engine/proofs/verify-proof.js';
import { readProofFile } from '../../main/engine/proofs/verify-read-proof.js';
import { makeTempDir } from '../support/engine-fixture.js';
import { copyProof, offlineProof, optionsFor } from './proof-fixture.js';

const pool = new OfflinePool(2);
afterAll(() => pool.close());

/** A folder of proof files, good and bad in turn. */
function folder(count: number): string[] {
  const dir = makeTempDir('proofdesk-offline-pool-');
  const good = offlineProof();
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `p${i}.proof.json`);
    const p = copyProof(good);
    switch (i % 7) {
      case 1:
        p.certificate.credential.title += ' (changed)';
        break;
      case 2:
        p.merkle_path = [...p.merkle_path, 'ab'.repeat(32)];
        break;
      case 3:
        p.issuer.signature = `${p.issuer.signature.slice(0, 10)}${p.issuer.signature[10] === '0' ? '1' : '0'}${p.issuer.signature.slice(11)}`;
        break;
      case 4:
        writeFileSync(path, '{"not": "a proof", "certificate": {"credential": {"files": [{"file_hash": "aa"}]}}}');
        return path;
      case 5:
        writeFileSync(path, 'garbage, not JSON');
        return path;
      case 6:
        return join(dir, `missing-${i}.proof.json`);
    }
    writeFileSync(path, JSON.stringify(p));
    return path;
  });
}

/** verifyProof of the file alone, or the message it (or the reader) throws. */
async function alone(path: string): Promise<unknown> {
  try {
    return await verifyProof(readProofFile(path), optionsFor(undefined, { now: () => new Date('2027-01-01T00:00:00Z') }));
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return error.message;
  }
}

async function throughOutcome(outcome: OfflineOutcome): Promise<unknown> {
  if (outcome.kind === 'credential') throw new Error('a proof was taken for a Verifiable Credential');
  if (outcome.kind !== 'checked') return outcome.reason;
  return verifyChecked(outcome.core, checksOf(outcome), optionsFor(undefined, { now: () => new Date('2027-01-01T00:00:00Z') }));
}

describe('OfflinePool', () => {
  it('gives, through verifyChecked, each proof the result verifyProof gives it alone', async () => {
    const paths = folder(70);
    const outcomes = [...(await pool.check(paths.slice(0, 35).map((path) => ({ path })))), ...(await pool.check(paths.slice(35).map((path) => ({ path }))))];
    expect(outcomes).toEqual(paths.map((path) => checkOffline({ path })));
    const results = await Promise.all(outcomes.map(throughOutcome));
    expect(results).toEqual(await Promise.all(paths.map(alone)));
    const statuses = results.map((r) => (typeof r === 'string' ? 'unread' : (r as { result: { status: string } }).result.status));
    expect(new Set(statuses)).toEqual(new Set(['pending', 'failed', 'unread']));
    expect(outcomes.filter((o) => o.kind === 'invalid').every((o) => o.kind === 'invalid' && o.fileHashes?.[0] === 'aa')).toBe(true);
  });

  it('checks bytes in memory as it checks the file that holds them', async () => {
    const [path] = folder(1);
    const bytes = new Uint8Array(Buffer.from(JSON.stringify(readProofFile(path!))));
    expect(await pool.check([{ path: 'dropped.proof.json', bytes }])).toEqual([checkOffline({ path: path! })]);
  });

  it('runs one after another share warm workers: the second does not start its own', () => {
    const first = borrowOfflinePool();
    first.release();
    const second = borrowOfflinePool();
    try {
      expect(second.pool).toBe(first.pool);
    } finally {
      second.release();
    }
  });

  it('warming starts the shared workers for the run about to come, which borrows those very workers', async () => {
    warmOfflinePool();
    const warmed = borrowOfflinePool();
    warmed.release();
    warmOfflinePool();
    const run = borrowOfflinePool();
    try {
      expect(run.pool).toBe(warmed.pool);
      const [path] = folder(1);
      expect((await run.pool.check([{ path: path! }]))[0]!.kind).toBe('checked');
    } finally {
      run.release();
    }
  });

  it('a run closed early (cancelled) sends no more of its batches to the shared workers', async () => {
    const [path] = folder(1);
    const check = vi.spyOn(OfflinePool.prototype, 'check');
    try {
      const run = openVerifyingRun(optionsFor(undefined), 3_000);
      const outcome = run.checkAll(Array.from({ length: 3_000 }, () => ({ path: path! })));
      expect((await outcome(0)).kind).toBe('checked');
      await run.close();
      const sent = check.mock.calls.length;
      // Whatever was in flight comes back; nothing after it is sent.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(check.mock.calls.length).toBe(sent);
      expect(sent).toBeLessThan(30);
    } finally {
      check.mockRestore();
    }
  });

  it('a run over many proofs hands out every outcome by index, in batches', async () => {
    const paths = folder(250);
    const run = openVerifyingRun(optionsFor(undefined), paths.length);
    try {
      const outcome = run.checkAll(paths.map((path) => ({ path })));
      const got = await Promise.all(paths.map((_, i) => outcome(i)));
      expect(got).toEqual(paths.map((path) => checkOffline({ path })));
    } finally {
      await run.close();
    }
  });
});
