import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ServiceError } from '../../../common/errors.js';

/** A proof file is small; anything larger is not one (the API's limit too). */
export const MAX_PROOF_FILE_BYTES = 1024 * 1024;

/**
 * Reads and parses a proof file, refusing anything over MAX_PROOF_FILE_BYTES BEFORE reading it
 * all (parsing a large deeply nested file takes minutes and gigabytes). A UTF-8 byte-order mark, as some
 * editors save, is accepted. Throws ServiceError('invalid_value') with the reason.
 */
export function readProofFile(path: string): unknown {
  let bytes: Buffer;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const { size, isFile } = (() => {
      const stat = fstatSync(fd);
      return { size: stat.size, isFile: stat.isFile() };
    })();
    if (!isFile) throw new ServiceError('invalid_value', `${path} is not a file`);
    if (size > MAX_PROOF_FILE_BYTES) throw new ServiceError('invalid_value', `${path} is ${size} bytes; a proof file is at most ${MAX_PROOF_FILE_BYTES} bytes, so this is not one`);
    // Read at most one byte past the limit: the file may grow between the stat and the read.
    // (Not zeroed: only the bytes read are used.)
    bytes = Buffer.allocUnsafe(Math.min(size, MAX_PROOF_FILE_BYTES) + 1);
    let length = 0;
    for (let n; length < bytes.length && (n = readSync(fd, bytes, length, bytes.length - length, null)) > 0; ) {
      length += n;
      // Every byte its look counted is in: no second read to hear the end (10,000 calls less a
      // folder of proofs). A read shorter than that (some network and FUSE file systems) reads on.
      if (length === size) break;
    }
    if (length > MAX_PROOF_FILE_BYTES) throw new ServiceError('invalid_value', `${path} is larger than ${MAX_PROOF_FILE_BYTES} bytes; a proof file is not`);
    bytes = bytes.subarray(0, length);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new ServiceError('invalid_value', `Cannot read the proof file ${path}: ${why}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return parseProofText(bytes, path);
}

/** Parses a proof file's bytes (UTF-8, with or without a byte-order mark). */
export function parseProofText(bytes: Buffer, path: string): unknown {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return JSON.parse(bytes.toString('utf8', start));
  } catch (error) {
    throw new ServiceError('invalid_value', `${path} is not a proof file: it is not JSON (${(error as Error).message})`);
  }
}
