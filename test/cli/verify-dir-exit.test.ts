/**
 * `verify DIR` over enough proofs to use the proof-checking workers, as a real child process:
 * the workers stay warm for a next run in the same process (the app verifies drop after drop),
 * yet the command exits as soon as it is done — they never keep a finished process alive.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFLINE_POOL_FROM } from '../../main/engine/proofs/verify-many.js';
import { POOL_IDLE_MS } from '../../main/engine/proofs/verify-offline-pool.js';
import { offlineProof } from '../proofs/proof-fixture.js';
import { makeTempDir } from '../support/engine-fixture.js';
import { startCliChild } from './cli-child.js';

describe('verify DIR with the proof-checking workers', () => {
  it('exits once done, without waiting for the warm workers to stop', async () => {
    const dir = makeTempDir('proofdesk-verify-dir-exit-');
    const proofs = join(dir, 'proofs');
    mkdirSync(proofs);
    const proof = JSON.stringify(offlineProof());
    for (let i = 0; i < OFFLINE_POOL_FROM + 6; i++) writeFileSync(join(proofs, `p${i}.proof.json`), proof);
    const run = startCliChild(['verify', proofs, '--offline', '--json', '--data', join(dir, 'data')], { ...process.env, PROOFDESK_DATA: join(dir, 'data') });
    // Killed if still running when the idle workers would have stopped by themselves.
    const timer = setTimeout(() => run.child.kill('SIGKILL'), POOL_IDLE_MS - 5_000);
    const ended = await run.ended;
    clearTimeout(timer);
    expect(ended.signal).toBeNull();
    const summary = JSON.parse(ended.stdout) as { summary?: { total: number }; total?: number };
    expect((summary.summary ?? summary).total).toBe(OFFLINE_POOL_FROM + 6);
  }, 60_000);
});
