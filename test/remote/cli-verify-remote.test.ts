/**
 * `verify --remote BASE_URL CERTIFICATE_UID`: the remote service (a `serve` on loopback) verifies
 * its stored certificate; `certificate list --remote` lists it. The client secret comes from the
 * environment only.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Certificate, Page } from '../../common/wire-types.js';
import { cliWithSecret as cli } from '../support/cli-in-process.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';

let served: ServedEngine;
let partner: ServedPartner;
let dir: string;

beforeAll(async () => {
  served = await serveEngine();
  partner = await served.addPartner('Verify Remote University');
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-verify-remote-'));
  // `issue --remote` keeps its journal in the local data directory (the default one, or PROOFDESK_DATA).
  process.env.PROOFDESK_DATA = join(dir, 'local-data');
}, 60_000);
afterAll(async () => {
  await served?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('verify --remote asks the remote service to verify its certificate; certificate list --remote lists it', async () => {
  const remote = ['--remote', served.server.baseUrl, '--client-id', partner.clientId];
  const file = join(dir, 'diploma.txt');
  writeFileSync(file, `diploma ${randomUUID()}\n`);
  const ticking = setInterval(() => void served.engine.issuing.tick(), 100);
  try {
    const issued = await cli(['issue', file, ...remote, '--now', '--out', join(dir, 'proofs'), '--json'], partner.clientSecret);
    expect(issued.code, issued.err).toBe(0);
  } finally {
    clearInterval(ticking);
  }
  const listed = await cli(['certificate', 'list', ...remote, '--json'], partner.clientSecret);
  const page = JSON.parse(listed.out) as Page<Certificate>;
  expect(page.total_items).toBe(1);
  const uid = page.items[0]!.certificate.uid;

  const verified = await cli(['verify', uid, ...remote], partner.clientSecret);
  expect(verified.out, verified.err).toContain('Result: ok');
  expect(verified.code).toBe(0);
  const missing = await cli(['verify', randomUUID(), ...remote], partner.clientSecret);
  expect(missing.code).toBe(1);
  expect(missing.err).toContain('missing_certificate');
  const mixed = await cli(['verify', uid, ...remote, '--offline'], partner.clientSecret);
  expect(mixed.code).toBe(2);
}, 120_000);
