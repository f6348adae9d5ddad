/**
 * What `verify` reads and how it tells people: a proof file is
 * capped at 1 MiB before parsing, a UTF-8 byte-order mark is accepted, a lone surrogate is refused
 * with its reason; the human output never says "passed" for a file it did not check, and shows
 * the values a failing step compared.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { offlineProof } from '../proofs/proof-fixture.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-verify-input-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('verify input', () => {
  it('refuses a proof file over 1 MiB before parsing it, saying why', async () => {
    const path = join(dir, 'huge.json');
    // Deeply nested: parsing it whole would take minutes and gigabytes.
    writeFileSync(path, `${'['.repeat(1_100_000)}${']'.repeat(1_100_000)}`);
    expect(statSync(path).size).toBeGreaterThan(1024 * 1024);
    const result = await cli('verify', path, '--offline', '--data', join(dir, 'data'));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error invalid_value \(\d+\): .*huge\.json is 2200000 bytes; a proof file is at most 1048576 bytes/);
  });

  it('accepts a proof saved with a UTF-8 byte-order mark', async () => {
    const path = join(dir, 'bom.proof.json');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(offlineProof()))]));
    const result = await cli('verify', path, '--offline', '--json', '--data', join(dir, 'data'));
    expect(result.err).toBe('');
    expect(JSON.parse(result.out).verification.certificate.status).toBe('passed');
    expect(JSON.parse(result.out).result.status).toBe('pending');
  });

  it('gives a clear reason for a lone surrogate in a field, not a bare error', async () => {
    const proof = offlineProof();
    const path = join(dir, 'surrogate.proof.json');
    writeFileSync(path, JSON.stringify(proof).replace(JSON.stringify(proof.certificate.credential.title), '"Bachelor \\ud800 of Science"'));
    const result = await cli('verify', path, '--offline', '--json', '--data', join(dir, 'data'));
    expect(result.code).toBe(1);
    expect(result.err).toContain('certificate.credential.title holds a lone UTF-16 surrogate');
    const inMetadata = JSON.stringify(proof).replace('"Ada Lovelace"', '"Ada \\udc00"');
    writeFileSync(path, inMetadata);
    expect((await cli('verify', path, '--offline', '--data', join(dir, 'data'))).err).toContain('certificate.credential.metadata.student holds a lone UTF-16 surrogate');
  });

  it('says "not checked" for the file when no original was given, and shows expected and actual values of a failing step', async () => {
    const path = join(dir, 'a.proof.json');
    writeFileSync(path, JSON.stringify(offlineProof()));
    const unchecked = await cli('verify', path, '--offline', '--data', join(dir, 'data'));
    expect(unchecked.out).toContain('Checking file integrity: not checked (no file given');
    expect(unchecked.out).not.toContain('Checking file integrity: passed');
    expect(unchecked.out).toContain('(not checked: --offline)');

    const other = join(dir, 'other.pdf');
    writeFileSync(other, 'not the diploma');
    const wrong = await cli('verify', path, '--file', other, '--offline', '--data', join(dir, 'data'));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/Checking file integrity: failed\n\s+hash_function: SHA-256\n\s+expected_file_hash: [0-9a-f]{64},[0-9a-f]{64}\n\s+actual_file_hash: [0-9a-f]{64}/);
  });
});
