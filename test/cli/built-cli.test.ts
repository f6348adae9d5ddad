/**
 * The built command line: `npm run build` bundles main/cli into out/cli, the
 * package's `proofdesk` bin; a command loads only what it needs; `verify DIR` checks many proofs
 * in one process with a summary table and a CSV report. (Its speed is measured in bench/, not here.)
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProof, offlineProof } from '../proofs/proof-fixture.js';
import { REPO } from './cli-child.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin?: Record<string, string>; scripts: Record<string, string> };
const BIN = join(REPO, pkg.bin?.proofdesk ?? 'out/cli/index.js');
let dir: string;

/** Runs the built CLI; with `trace`, also lists the npm packages it loaded. */
function proofdesk(args: string[], trace?: string): Promise<{ code: number; out: string; err: string }> {
  const hook = trace ? ['--import', pathToFileURL(trace).href] : [];
  return new Promise((resolve) => {
    execFile(process.execPath, [...hook, BIN, ...args], { cwd: dir, env: { ...process.env, PROOFDESK_DATA: join(dir, 'data') } }, (error, out, err) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-built-cli-'));
  execFileSync(process.execPath, [join(REPO, 'scripts/build-cli.mjs')], { cwd: REPO, stdio: 'ignore' });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built CLI', () => {
  it('is the package’s `proofdesk` bin, built by npm run build, executable with a node hashbang', () => {
    expect(pkg.bin).toEqual({ proofdesk: 'out/cli/index.js' });
    expect(pkg.scripts.build).toContain('scripts/build-cli.mjs');
    expect(pkg.scripts.cli).toBe('tsx main/cli/index.ts');
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  it('loads only what a command needs: no HTTP server or client, validator or chain client for partner list or verify --offline', async () => {
    // A module hook that lists every npm package the process resolves: from node_modules, or
    // bundled into a chunk of out/cli (its source map names the package's files).
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { readFileSync } from 'node:fs';
const pkg = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/g;
export async function resolve(s, c, next) {
  const r = await next(s, c);
  const names = r.url.includes('/node_modules/') ? [r.url] : r.url.includes('/out/cli/') ? JSON.parse(readFileSync(new URL(r.url + '.map'), 'utf8')).sources : [];
  for (const name of new Set(names.flatMap((n) => [...n.matchAll(pkg)].map((m) => m[1])))) process.stderr.write('pkg ' + name + '\\n');
  return r;
}
`,
    );
    const trace = join(dir, 'trace.mjs');
    writeFileSync(trace, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const proof = join(dir, 'one.proof.json');
    writeFileSync(proof, JSON.stringify(offlineProof()));
    for (const args of [['partner', 'list'], ['verify', proof, '--offline']]) {
      const run = await proofdesk(args, trace);
      const loaded = new Set([...run.err.matchAll(/^pkg (.+)$/gm)].map((m) => m[1]!));
      expect(run.out, run.err).not.toBe('');
      for (const heavy of ['fastify', 'undici', 'ajv', 'viem', 'chokidar', 'keytar']) expect([...loaded], `${args.join(' ')} loaded ${heavy}`).not.toContain(heavy);
    }
  }, 60_000);

  it('verify DIR checks every proof in one process: a summary table, and one CSV row per proof with --report', async () => {
    const proofs = join(dir, 'proofs');
    mkdirSync(proofs, { recursive: true });
    for (let i = 0; i < 3; i++) writeFileSync(join(proofs, `good-${i}.json`), JSON.stringify(offlineProof()));
    const tampered = copyProof(offlineProof());
    tampered.certificate.credential.title = 'Master of Science';
    writeFileSync(join(proofs, 'tampered.json'), JSON.stringify(tampered));
    writeFileSync(join(proofs, 'notes.json'), 'not a proof');
    writeFileSync(join(proofs, 'readme.txt'), 'ignored: not *.json');
    const report = join(dir, 'report.csv');
    const run = await proofdesk(['verify', proofs, '--offline', '--report', report]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/result\s+proofs\n-+\s+-+\npending\s+3\nfailed\s+1\nunreadable\s+1\ntotal\s+5/);
    expect(run.out).toContain(`failed: ${join(proofs, 'tampered.json')} at "Checking certificate integrity"`);
    const rows = readFileSync(report, 'utf8').trim().split('\r\n');
    expect(rows[0]).toBe('path,certificate_uid,result,step,reason');
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r.includes('tampered.json'))).toMatch(/,failed,Checking certificate integrity,$/);
    expect(rows.find((r) => r.includes('notes.json'))).toMatch(/,unreadable,,.*not JSON/);
    // Enough proofs for the signature workers, one of them with another key's signature.
    const many = join(dir, 'many');
    mkdirSync(many);
    const good = offlineProof();
    for (let i = 0; i < 80; i++) writeFileSync(join(many, `p${i}.json`), JSON.stringify(i % 2 ? good : offlineProof()));
    const forged = copyProof(good);
    forged.issuer.signature = offlineProof().issuer.signature;
    writeFileSync(join(many, 'forged.json'), JSON.stringify(forged));
    const batch = JSON.parse((await proofdesk(['verify', many, '--offline', '--json'])).out) as { counts: Record<string, number>; proofs: { path: string; result: string; step: string }[] };
    expect(batch.counts).toEqual({ pending: 80, failed: 1 });
    expect(batch.proofs.find((p) => p.result === 'failed')).toMatchObject({ path: join(many, 'forged.json'), step: 'Checking issuer authenticity' });
    // Several files given one by one: the same batch form.
    const two = await proofdesk(['verify', join(proofs, 'good-0.json'), join(proofs, 'good-1.json'), '--offline', '--json']);
    expect(JSON.parse(two.out)).toMatchObject({ total: 2, counts: { pending: 2 } });
  }, 60_000);
});
