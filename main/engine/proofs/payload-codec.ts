import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * How a certificate's payload (its canonical JSON, the signed bytes) is stored: raw DEFLATE
 * with its job's dictionary, the job's first payload. A job's payloads share their keys, the
 * Partner, the engine and most of their shape, so each is stored as little more than what
 * makes it differ. Reading inflates it back to the very bytes that were signed. Payloads
 * stored as text (before schema 4) read as they are.
 */
// An 8 KB window holds the dictionary and a payload; a small memLevel and output chunk keep each
// call's buffers small (the default 16 KB output chunk per ~300-byte result held ~130 MB of
// garbage on the signer threads while a large job was built).
export const PAYLOAD_DEFLATE_OPTIONS = { level: 6, windowBits: 13, memLevel: 6, chunkSize: 1024 } as const;

export function compressPayload(text: string, dictionary: Buffer): Buffer {
  return deflateRawSync(Buffer.from(text, 'utf8'), { ...PAYLOAD_DEFLATE_OPTIONS, dictionary });
}

/** The canonical JSON text of a stored payload. */
export function payloadText(stored: string | Buffer, dictionary: Buffer | null): string {
  if (typeof stored === 'string') return stored;
  if (!dictionary) throw new Error('A compressed certificate payload without its job’s dictionary');
  return inflateRawSync(stored, { dictionary }).toString('utf8');
}
