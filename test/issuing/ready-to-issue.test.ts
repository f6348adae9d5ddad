/**
 * Getting ready to issue at once (`issue --now`): the engine's chain is connected and its
 * signer threads started in the background, and closing the engine while the local chain is
 * still starting leaves no anvil running. Real engine, real anvil.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../main/chain/index.js';
import { LOCK_FILE_NAME, readLock } from '../../main/chain/anvil-lock.js';
import { addIssuingPartner, createAndSchedule, issueNowAndFinish, openIssuingEngine, removeTempDirs, waitFor, type IssuingFixture } from '../support/issuing-fixture.js';

let fixture: IssuingFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});
afterAll(removeTempDirs);

describe('readyToIssue: the chain and signers made ready before an immediate issue', () => {
  it('starts the local chain in the background, with no other call; the issue that follows runs on that chain and finishes', async () => {
    fixture = openIssuingEngine();
    const partner = await addIssuingPartner(fixture.engine, 'Ready University');
    const lockFile = join(fixture.dataDir, 'chain', 'local', LOCK_FILE_NAME);
    fixture.engine.issuing.readyToIssue('local');
    const started = await waitFor('the local chain readyToIssue started', () => {
      const lock = readLock(lockFile);
      return lock && isProcessAlive(lock.pid) ? lock : undefined;
    });
    await createAndSchedule(partner.service, 'local', 3);
    const job = await issueNowAndFinish(fixture.engine, partner.service, 'local');
    expect(job.status).toBe('finished');
    expect(readLock(lockFile)?.pid).toBe(started.pid);
  }, 60_000);

  it('a close that comes while the local chain is still starting waits for it and stops it: no anvil outlives the engine', async () => {
    fixture = openIssuingEngine({ keepDir: true });
    const stateDir = join(fixture.dataDir, 'chain', 'local');
    fixture.engine.issuing.readyToIssue('local');
    const connecting = fixture.engine.issuing.ctx.chains.client('local');
    await fixture.close();
    // Had the close not waited, the chain would come up only now, with nothing left to stop it.
    await connecting.catch(() => undefined);
    expect(existsSync(join(stateDir, 'anvil.log'))).toBe(true);
    const lock = readLock(join(stateDir, LOCK_FILE_NAME));
    expect(lock === undefined || !isProcessAlive(lock.pid)).toBe(true);
  }, 60_000);

  it('an engine this data directory does not know is left alone (the issue itself says so)', () => {
    fixture = openIssuingEngine();
    expect(() => fixture!.engine.issuing.readyToIssue('no-such-engine')).not.toThrow();
    expect(existsSync(join(fixture.dataDir, 'chain'))).toBe(false);
  });
});
