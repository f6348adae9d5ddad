/**
 * A 2 GiB upload is hashed (and stored) in a stream: the answer is the SHA-256 of its bytes
 * and the process's memory stays flat. The source is a sparse file (no disk for the source);
 * the engine's store copies the bytes into its data directory, on the same disk, removed after.
 */
import { closeSync, openSync, rmSync, statSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';

const SIZE = 2 * 1024 * 1024 * 1024;
/** SHA-256 of 2 GiB of zero bytes; checked with `head -c 2147483648 /dev/zero | sha256sum`. */
const SHA256_OF_2GIB_ZEROS = 'a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51';
const MIB = 1024 * 1024;

describe('large files', () => {
  let sourceDir: string;
  let fixture: EngineFixture;

  beforeAll(() => {
    sourceDir = makeTempDir('proofdesk-large-');
    fixture = openEngine();
  });
  afterAll(async () => {
    await fixture?.close();
    if (sourceDir) rmSync(sourceDir, { recursive: true, force: true });
  });

  it('a 2 GiB file uploads with the SHA-256 of its bytes, and memory grows by less than 200 MiB', async () => {
    const path = join(sourceDir, 'zeros.bin');
    const fd = openSync(path, 'w');
    try {
      ftruncateSync(fd, SIZE);
    } finally {
      closeSync(fd);
    }
    expect(statSync(path).size).toBe(SIZE);
    const service = addPartner(fixture.engine, 'Big Files Inc').service;

    globalThis.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const file = await service.uploadFile({ file: { path } });
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(file.file_hash).toBe(SHA256_OF_2GIB_ZEROS);
      expect(await service.getFile(SHA256_OF_2GIB_ZEROS)).toEqual(file);
    } finally {
      clearInterval(sampler);
    }
    expect((peak - baseline) / MIB).toBeLessThan(200);
  }, 120_000);
});
