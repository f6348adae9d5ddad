/**
 * A watched folder stays inside itself (docs/intake.md, "Links and what is taken"): links are
 * never followed, read or moved, whether they point inside or outside, to a file or to a
 * folder; a hard link is refused too. Long names (up to the 255-byte limit) are issued and get
 * their proof; a name that is not valid UTF-8 is reported as failed. Real links, real folders,
 * the real engine on the local chain; every link is made while the intake runs.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import type { FolderIntake, FolderIntakeEvent } from '../../main/intake/index.js';
import { credentialsOf, filesUnder, readJson, sha256Hex, tempDir, waitFor, watchInbox, usePartner } from './helpers.js';

let service: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];
usePartner('Containment University', { running, opened: (opened) => ({ service, dataDir } = opened) });

function watchFolder(tag: string) {
  return watchInbox(running, { service, dataDir, tag });
}

function credentialsTagged(tag: string): Promise<Credential[]> {
  return credentialsOf(service, tag);
}

function failedPaths(events: FolderIntakeEvent[]): string[] {
  return events.filter((e) => e.type === 'failed').map((e) => (e as { path: string }).path).sort();
}

describe('containment: links are never followed, read or moved', () => {
  it('symlinks to an outside folder, an outside file, /etc/hostname and an inside file, and a hard link, made while watching', async () => {
    const { root, intake, events } = await watchFolder('contained');
    const outside = join(tempDir(), 'outside');
    mkdirSync(join(outside, 'deep'), { recursive: true });
    writeFileSync(join(outside, 'secret-a.txt'), 'outside secret A');
    writeFileSync(join(outside, 'deep', 'secret-b.txt'), 'outside secret B');
    writeFileSync(join(outside, 'private.txt'), 'outside private file');
    writeFileSync(join(outside, 'hard-target.txt'), 'outside file with a second name inside');
    writeFileSync(join(root, 'real.txt'), 'a real file inside');
    await waitFor('real.txt issued', () => existsSync(join(root, 'done', 'real.txt')), 30_000);

    symlinkSync(outside, join(root, 'outside-dir'));
    symlinkSync(join(outside, 'private.txt'), join(root, 'private.txt'));
    symlinkSync('/etc/hostname', join(root, 'hostname.txt'));
    writeFileSync(join(root, 'inside.txt'), 'the target of an inside link');
    symlinkSync('inside.txt', join(root, 'inside-link.txt'));
    linkSync(join(outside, 'hard-target.txt'), join(root, 'hard.txt'));

    await waitFor('five links failed', () => failedPaths(events).length >= 5, 30_000);
    await waitFor('inside.txt issued', () => existsSync(join(root, 'done', 'inside.txt')), 30_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 30_000);
    expect(failedPaths(events)).toEqual(['hard.txt', 'hostname.txt', 'inside-link.txt', 'outside-dir', 'private.txt']);
    // Nothing outside moved or read.
    expect(filesUnder(outside)).toEqual(['deep/secret-b.txt', 'hard-target.txt', 'private.txt', 'secret-a.txt']);
    const hashes = new Set((await credentialsTagged('contained')).map((c) => c.files[0]!.file_hash));
    expect(hashes).toEqual(new Set([sha256Hex('a real file inside'), sha256Hex('the target of an inside link')]));
    for (const secret of ['outside secret A', 'outside secret B', 'outside private file', 'outside file with a second name inside', readFileSync('/etc/hostname')]) {
      expect(hashes.has(sha256Hex(secret))).toBe(false);
    }
    // The links stay where they are (never moved), each with its reason in failed/.
    for (const link of ['outside-dir', 'private.txt', 'hostname.txt', 'inside-link.txt']) expect(lstatSync(join(root, link)).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(root, 'hard.txt')).nlink).toBe(2);
    expect(filesUnder(join(root, 'failed')).sort()).toEqual(['hard.txt.error.json', 'hostname.txt.error.json', 'inside-link.txt.error.json', 'outside-dir.error.json', 'private.txt.error.json']);
    expect(readJson(join(root, 'failed', 'outside-dir.error.json'))).toMatchObject({ id: 'no_file_on_payload', message: expect.stringContaining('symbolic link') });
    expect(readJson(join(root, 'failed', 'hard.txt.error.json'))).toMatchObject({ id: 'no_file_on_payload', message: expect.stringContaining('hard link') });
    expect(filesUnder(join(root, 'done'))).toEqual(['inside.txt', 'real.txt']);
    // Listed as failed files left in place.
    expect(intake.failedFiles().filter((f) => f.failed_path === null).map((f) => f.path).sort()).toEqual(['hard.txt', 'hostname.txt', 'inside-link.txt', 'outside-dir', 'private.txt']);
    // Reported once, not again on a rescan: the links it finds again are looked at and let be.
    await (intake as unknown as { core: { settler: { rescan(): Promise<void> } } }).core.settler.rescan();
    await waitFor('what the rescan found to be looked at', () => intake.pending() === 0, 30_000);
    expect(failedPaths(events)).toHaveLength(5);
  });
});

describe('names', () => {
  it('names of 236, 254 and 255 bytes are issued and get their proof; a name that is not UTF-8 is reported as failed', async () => {
    const { root, intake, events } = await watchFolder('long-names');
    const names = [236, 254, 255].map((n) => `${'n'.repeat(n - 4 - 3)}${n}.txt`);
    for (const name of names) expect(Buffer.byteLength(name)).toBeGreaterThanOrEqual(236);
    names.forEach((name, i) => writeFileSync(join(root, name), `long name ${i}`));
    const bad = Buffer.concat([Buffer.from(`${root}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
    writeFileSync(bad, 'a name that is not UTF-8');

    await waitFor('three long names in done/', () => filesUnder(join(root, 'done')).length === 3, 40_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 30_000);
    expect(filesUnder(join(root, 'done')).sort()).toEqual([...names].sort());
    const proofs = filesUnder(join(root, 'proofs'));
    expect(proofs).toHaveLength(3);
    for (const proof of proofs) expect(Buffer.byteLength(proof)).toBeLessThanOrEqual(255);
    // No temporary file left anywhere.
    expect(filesUnder(root).filter((p) => p.includes('.writing'))).toEqual([]);
    const nonUtf8 = events.find((e) => e.type === 'failed' && e.message.includes('UTF-8'));
    expect(nonUtf8).toBeDefined();
    expect(intake.progress().failed).toBe(1);
    expect(readdirSync(root, { encoding: 'buffer' }).some((n) => n.includes(Buffer.from([0xff, 0xfe])))).toBe(true);
  });
});
