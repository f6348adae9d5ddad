/**
 * multipart/form-data request bodies that stream: a file is read from disk (or from the
 * caller's bytes or stream) while it is sent, never held whole in memory.
 *
 * Written here rather than with undici's FormData because an `UploadSource` may be an async
 * stream of unknown length, which a Blob cannot hold without buffering it all.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { ServiceError } from '../../common/errors.js';
import type { UploadSource } from '../../common/requests.js';

/** A request body the transport can (re)open. */
export interface RequestBody {
  contentType: string;
  /** Byte length when known up front (sent as content-length), else the body is chunked. */
  length: number | undefined;
  /** Opens the bytes; called once per attempt. */
  open(): Readable | Buffer;
  /** Whether `open` may be called again (a retry after a 401 or `try_again_later`). */
  replayable: boolean;
}

/** A JSON body. */
export function jsonBody(value: unknown): RequestBody {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ServiceError('invalid_value', `The request body must be plain JSON (no BigInt, no cycles): ${(error as Error).message}`, { cause: error });
  }
  const bytes = Buffer.from(text ?? 'null', 'utf8');
  return { contentType: 'application/json', length: bytes.length, open: () => bytes, replayable: true };
}

/** An upload source, checked and ready to be read (again, when it comes from disk or memory). */
export interface OpenedFile {
  filename: string;
  size: number | undefined;
  open(): Readable;
  replayable: boolean;
}

/** A filename is needed for the part to count as a file; nameless sources get one without an extension. */
const NAMELESS = 'upload';

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/**
 * Checks an upload source the way the embedded engine does: a path that is not a readable
 * file, or a source with neither a path nor bytes, is `no_file_on_payload`.
 */
export async function openUpload(source: UploadSource | unknown): Promise<OpenedFile> {
  const s = source as { path?: unknown; data?: unknown; name?: unknown } | null;
  const name = typeof s?.name === 'string' && s.name !== '' ? s.name : undefined;
  if (typeof s === 'object' && s !== null && typeof s.path === 'string') {
    const path = s.path;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new ServiceError('no_file_on_payload', `No file at ${path}`);
    return { filename: name ?? basename(path), size: info.size, open: () => createReadStream(path), replayable: true };
  }
  if (typeof s === 'object' && s !== null && s.data instanceof Uint8Array) {
    const data = s.data;
    return { filename: name ?? NAMELESS, size: data.byteLength, open: () => Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]), replayable: true };
  }
  if (typeof s === 'object' && s !== null && isAsyncIterable(s.data)) {
    const data = s.data;
    let opened = false;
    return {
      filename: name ?? NAMELESS,
      size: undefined,
      open: () => {
        if (opened) throw new ServiceError('internal_error', 'A streamed upload cannot be sent twice');
        opened = true;
        return Readable.from(data);
      },
      replayable: false,
    };
  }
  throw new ServiceError('no_file_on_payload', 'No file in the request: give a path or the bytes');
}

export type FormPart = { name: string; value: string } | { name: string; file: OpenedFile };

/** Quotes a form-data parameter value as the HTML standard does (`"`, CR and LF escaped). */
function quoteParam(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** A streaming multipart/form-data body of text fields and files, in the order given. */
export function multipartBody(parts: readonly FormPart[]): RequestBody {
  const boundary = `----proofdesk-${randomUUID().replace(/-/g, '')}`;
  const heads = parts.map((part) => {
    const disposition = `form-data; name=${quoteParam(part.name)}${'file' in part ? `; filename=${quoteParam(part.file.filename)}` : ''}`;
    const type = 'file' in part ? 'Content-Type: application/octet-stream\r\n' : '';
    return Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`, 'utf8');
  });
  const values = parts.map((part) => ('file' in part ? undefined : Buffer.from(part.value, 'utf8')));
  const crlf = Buffer.from('\r\n');
  const tail = Buffer.from(`--${boundary}--\r\n`);
  let length: number | undefined = tail.length;
  parts.forEach((part, i) => {
    const size = 'file' in part ? part.file.size : values[i]!.length;
    length = length === undefined || size === undefined ? undefined : length + heads[i]!.length + size + crlf.length;
  });
  async function* generate(): AsyncGenerator<Buffer> {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      yield heads[i]!;
      if ('file' in part) {
        for await (const chunk of part.file.open()) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      } else yield values[i]!;
      yield crlf;
    }
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => Readable.from(generate(), { objectMode: false }),
    replayable: parts.every((part) => !('file' in part) || part.file.replayable),
  };
}
