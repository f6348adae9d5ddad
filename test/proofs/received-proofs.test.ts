/**
 * What the browser bridge receives is checked offline on worker threads right away
 * (main/workspace/verify/received-proofs.ts), while the rest of the drop uploads: the outcome
 * taken by path is the one checking the file gives; other files, and files taken or forgotten,
 * have none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOffline } from '../../main/engine/proofs/verify-offline.js';
import { forgetReceived, rememberReceived, takeReceived } from '../../main/workspace/verify/received-proofs.js';
import { makeTempDir } from '../support/engine-fixture.js';
import { copyProof, offlineProof } from './proof-fixture.js';

describe('received proofs', () => {
  it('are checked as they arrive, each outcome that of checking its file, taken once', async () => {
    const dir = makeTempDir('proofdesk-received-');
    const good = offlineProof();
    const bad = copyProof(good);
    bad.certificate.credential.title = 'changed';
    const texts = [JSON.stringify(good), JSON.stringify(bad), 'not JSON', JSON.stringify(good)];
    const paths = texts.map((text, i) => {
      const path = join(dir, `p${i}.proof.json`);
      writeFileSync(path, text);
      rememberReceived(path, Buffer.from(text));
      return path;
    });
    rememberReceived(join(dir, 'diploma.pdf'), Buffer.from('%PDF'));
    const outcomes = await Promise.all(paths.map((path) => takeReceived(path)));
    expect(outcomes).toEqual(paths.map((path) => checkOffline({ path })));
    expect(outcomes.map((o) => o?.kind)).toEqual(['checked', 'checked', 'unreadable', 'checked']);
    expect(takeReceived(paths[0]!)).toBeUndefined();
    expect(takeReceived(join(dir, 'diploma.pdf'))).toBeUndefined();

    rememberReceived(join(dir, 'sub', 'again.json'), Buffer.from(texts[0]!));
    forgetReceived(dir);
    expect(takeReceived(join(dir, 'sub', 'again.json'))).toBeUndefined();
  });
});
