import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import { Engine } from '../../engine/index.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';

const NO_SUCH_UID = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';

let dir: string;
let engine: Engine;
let handlers: IpcHandlers;
let ada: string;
let theirs: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-link-titles-'));
  engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Links U' });
  ada = (await engine.serviceFor(added.partner_id).createCredentials([{ title: 'Diploma — Ada Lovelace', metadata: { programme: 'BSc' } }]))[0]!.uid;
  const other = engine.partners.add({ name: 'Other U' });
  theirs = (await engine.serviceFor(other.partner_id).createCredentials([{ title: 'Not yours', metadata: { programme: 'MSc' } }]))[0]!.uid;
  handlers = createIpcHandlers(createAppContext({ engine, partner: { id: added.partner_id, name: added.name } }));
});

afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("staging's linked records' titles (real SQLite)", () => {
  it("answers the titles of the Partner's own credentials by lowercase uid, never another Partner's", async () => {
    const titles = await invokeIpcHandler(handlers, 'staging:linkTitles', [[ada.toUpperCase(), theirs, NO_SUCH_UID]]);
    expect(titles).toEqual({ [ada]: 'Diploma — Ada Lovelace' });
  });

  it('refuses text that is no uid with invalid_value', async () => {
    const refused = await invokeIpcHandler(handlers, 'staging:linkTitles', [['bob.pdf']]).then(
      () => 'accepted',
      (error: unknown) => (isServiceError(error) ? error.id : String(error)),
    );
    expect(refused).toBe('invalid_value');
  });
});
