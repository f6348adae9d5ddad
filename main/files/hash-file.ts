/**
 * SHA-256 of files and bytes, the one way every part of main computes a content hash.
 *
 * @example
 * const { sha256, size } = await hashFile('diploma.pdf');
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Files up to this size are read whole (their bytes are what is hashed, and sent or checked);
 * larger ones are streamed, so the memory a file takes stays bounded.
 */
export const SMALL_FILE_BYTES = 4 * 1024 * 1024;

/** A content hash as the spec writes it: SHA-256, lowercase hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 and byte count of everything a stream yields, read to its end. */
export async function hashChunks(chunks: AsyncIterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * SHA-256 and size of the file at `path` (rejects with the file system's error, e.g. ENOENT).
 * A small one is read with synchronous calls (open, fstat, read, close: tens of microseconds,
 * far less CPU than four round trips through libuv's threads); a large one is streamed.
 */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size <= SMALL_FILE_BYTES) {
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      for (let n = -1; read < size && n !== 0; read += n) n = readSync(fd, bytes, read, size - read, read);
      return { sha256: sha256Hex(bytes.subarray(0, read)), size: read };
    }
  } finally {
    closeSync(fd);
  }
  return hashChunks(createReadStream(path));
}
