/**
 * The Partner's private keys (its chain account key and its certificate-signing key) live only
 * in the secret store: never in SQLite (file bytes or any table's values), never anywhere else
 * in the data directory, never in a proof file, never in an error a caller sees.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainKey, loadSigningKey } from '../../main/engine/issuing/partner-keys.js';
import {
  addIssuingPartner,
  createAndSchedule,
  errorOf,
  issueNowAndFinish,
  openIssuingEngine,
  removeTempDirs,
  startSecondChain,
  type IssuingFixture,
  type IssuingPartner,
  type SecondChain,
} from '../support/issuing-fixture.js';

const DOWN = 'down';
const POOR = 'poor';

/** Every textual and binary form a leaked key could take. */
function keyForms(chainKeyHex: string, pkcs8Base64: string, seed: Buffer): { text: string[]; bytes: Buffer[] } {
  const chainKey = Buffer.from(chainKeyHex.replace(/^0x/, ''), 'hex');
  const pkcs8 = Buffer.from(pkcs8Base64, 'base64');
  const text = [
    chainKey.toString('hex'),
    chainKey.toString('base64'),
    pkcs8Base64,
    pkcs8.toString('hex'),
    seed.toString('hex'),
    seed.toString('base64'),
    seed.toString('base64url'),
  ];
  const bytes = [chainKey, pkcs8, seed, ...text.map((t) => Buffer.from(t)), ...text.map((t) => Buffer.from(t.toUpperCase()))];
  return { text, bytes };
}

/** The forms found in a text (hex compared case-insensitively). */
function leaksIn(haystack: string, forms: string[]): string[] {
  const lower = haystack.toLowerCase();
  return forms.filter((f) => haystack.includes(f) || lower.includes(f.toLowerCase()));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Everything an error carries that could reach a caller or a log: message, stack, cause chain, details. */
function errorText(error: unknown): string {
  return [String(error), (error as Error)?.stack ?? '', inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error) ?? ''].join('\n');
}

describe('private keys stay in the secret store', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  const errors: unknown[] = [];
  const proofs: string[] = [];

  beforeAll(async () => {
    chain = await startSecondChain();
    fx = openIssuingEngine({
      engines: [
        { id: DOWN, rpc_url: 'http://127.0.0.1:9', chain_id: 11155111, confirmations: 1, environment: 'demo' },
        chain.engine(POOR),
      ],
      issuing: { onError: (e) => errors.push(e) },
    });
    partner = await addIssuingPartner(fx.engine, 'Keyholder University');

    // Issue (with a file), verify, revoke: every use of both keys.
    const file = await partner.service.createAndScheduleCredential('local', { file: { data: new TextEncoder().encode('the original'), name: 'o.txt' }, credential_details: { title: 'F', metadata: {} } });
    await createAndSchedule(partner.service, 'local', 20, 'Keys');
    const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
    const certificates = (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items;
    for (const c of certificates) proofs.push(await partner.service.downloadCertificate(c.certificate.uid));
    await partner.service.verifyCredential(file.uid);
    await partner.service.revokeCertificate(certificates[0]!.certificate.uid);

    // Errors on the way: an unreachable engine, a revocation and an issue with the local chain away.
    await createAndSchedule(partner.service, DOWN, 2, 'Down');
    errors.push(await errorOf(partner.service.issueJobNow({ engine: DOWN })));
    await fx.engine.issuing.ctx.chains.stopLocalChain();
    try {
      errors.push(await errorOf(partner.service.revokeCertificate(certificates[1]!.certificate.uid)));
      await createAndSchedule(partner.service, 'local', 2, 'Later');
      errors.push(await errorOf(partner.service.issueJobNow({ engine: 'local' })));
      await fx.engine.issuing.tick();
    } finally {
      fx.engine.issuing.ctx.chains.allowLocalChain();
    }
    errors.push(await errorOf(partner.service.revokeCertificate(certificates[0]!.certificate.uid)));

    // A job that waits on chain (an account with too little for gas): why it waits is stored in SQLite.
    const poor = await addIssuingPartner(fx.engine, 'Underfunded Academy');
    await chain.client.fund(poor.address, 1000n);
    const { job: poorJob } = await createAndSchedule(poor.service, POOR, 2, 'Poor');
    await poor.service.issueJobNow({ engine: POOR }).catch((error: unknown) => errors.push(error));
    expect((await poor.service.getJob(poorJob.uid)).waiting).toContain('waiting for funds');
  });

  afterAll(async () => {
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  async function forms(p: IssuingPartner) {
    const chainKey = await loadChainKey(fx.secrets, p.id);
    const { pkcs8, key } = await loadSigningKey(fx.secrets, p.id);
    const seed = Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url');
    expect(seed).toHaveLength(32);
    return keyForms(chainKey, pkcs8, seed);
  }

  it('are in no proof file', async () => {
    const { text } = await forms(partner);
    expect(proofs.length).toBeGreaterThan(20);
    for (const proof of proofs) expect(leaksIn(proof, text)).toEqual([]);
  });

  it('are in no error message', async () => {
    expect(errors.length).toBeGreaterThanOrEqual(4);
    const all = [...(await forms(partner)).text];
    const poor = fx.engine.partners.list().find((p) => p.name === 'Underfunded Academy');
    if (poor) all.push(...(await forms({ ...partner, id: poor.id })).text);
    for (const error of errors) expect(leaksIn(errorText(error), all)).toEqual([]);
  });

  it('are in no table of the database and nowhere in the data directory', async () => {
    const partners = fx.engine.partners.list();
    expect(partners.length).toBeGreaterThanOrEqual(2);
    const all = { text: [] as string[], bytes: [] as Buffer[] };
    for (const p of partners) {
      const f = await forms({ ...partner, id: p.id });
      all.text.push(...f.text);
      all.bytes.push(...f.bytes);
    }
    // Every value of every table.
    const db = new Database(join(fx.dataDir, 'proofdesk.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      expect(tables).toEqual(expect.arrayContaining(['partners', 'partner_keys', 'chain_txs', 'certificates', 'jobs']));
      for (const table of tables) {
        for (const row of db.prepare(`SELECT * FROM "${table}"`).raw().iterate() as Iterable<unknown[]>) {
          for (const value of row) {
            if (typeof value === 'string') expect(leaksIn(value, all.text), `${table}: ${value.slice(0, 80)}`).toEqual([]);
            else if (Buffer.isBuffer(value)) expect(all.bytes.filter((b) => value.includes(b)), table).toEqual([]);
          }
        }
      }
      // The texts stored for jobs that wait (why they wait) are among what was scanned.
      expect(db.prepare('SELECT count(*) FROM jobs WHERE waiting IS NOT NULL').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
    // The raw bytes of every file: the database, its WAL, the chain's state and logs, stored files.
    const files = filesUnder(fx.dataDir);
    expect(files.some((f) => f.endsWith('proofdesk.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(all.bytes.filter((b) => bytes.includes(b)), file).toEqual([]);
    }
  });
});
