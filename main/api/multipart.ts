/**
 * multipart/form-data uploads, streamed: the file part is handed to the engine as an
 * `UploadSource` whose bytes are read from the socket while the engine writes them to disk and
 * hashes them, so no upload is ever held in memory, whatever its size.
 *
 * The engine needs the form's text fields before it reads the file (they decide what happens
 * to it). When they come first (as Proofdesk's own client sends them) the file streams straight
 * through; when the file comes first, it is spooled to a temporary file while the rest of the
 * form is read, and handed over from there. Limits (file size, fields, parts, field size) are
 * explicit; going past one is 413 `payload_too_large`, and nothing of the upload is kept.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ServiceError, isServiceError } from '../../common/errors.js';
import type { UploadSource } from '../../common/requests.js';
import type { ApiContext, UploadLimits } from './context.js';
import { toServiceError } from './errors.js';

/** The one file part of every upload form. */
export const FILE_FIELD = 'file';

/** What an upload endpoint reads from its form. */
export interface FormPlan {
  /** The text fields it takes besides the file (each at most once). */
  fields: readonly string[];
  /** The file may be left out (creating a credential from metadata alone). */
  fileOptional?: boolean;
}

export interface FormInput {
  /** Text fields by name: text, or the parsed value of a field sent as application/json. */
  fields: Record<string, unknown>;
  file: UploadSource | undefined;
}

function sizeText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value} ${units[unit]}`;
}

export function fileTooLarge(limits: UploadLimits): ServiceError {
  return new ServiceError('payload_too_large', `The file is larger than ${sizeText(limits.fileSize)}, the most this server accepts`);
}

/** A file name as sent, reduced to its last path segment (the engine only reads its extension). */
export function safeFileName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const last = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f]/g, '');
  return last === '' || last === '.' || last === '..' ? undefined : last.slice(0, 255);
}

/** Any failure of the multipart parser as the spec's error (a malformed body is `invalid_value`). */
function formError(error: unknown): ServiceError {
  if (isServiceError(error)) return error;
  const mapped = toServiceError(error);
  if (!mapped.internal) return mapped.error;
  return new ServiceError('invalid_value', `Malformed multipart/form-data body: ${(error as Error)?.message ?? String(error)}`);
}

async function nextPart(parts: AsyncIterator<Multipart>): Promise<IteratorResult<Multipart>> {
  try {
    return await parts.next();
  } catch (error) {
    throw formError(error);
  }
}

/** A part's name, or undefined when its Content-Disposition has none (or an empty one). */
function nameOf(part: Multipart): string | undefined {
  return typeof part.fieldname === 'string' && part.fieldname !== '' ? part.fieldname : undefined;
}

const NO_NAME = `A form part has no name in its Content-Disposition header: send the file as "${FILE_FIELD}" (e.g. curl -F ${FILE_FIELD}=@path)`;

/**
 * Reads one text part into `fields`. A truncated value or a text part named "file" is refused at
 * once; an unknown, nameless or repeated field is returned as the form's problem, which
 * `withForm` reports only once it knows whether the form has a file (no file at all is
 * `no_file_on_payload`, the spec's id for it, whatever else the form holds).
 */
function takeField(part: Multipart & { type: 'field' }, plan: FormPlan, fields: Record<string, unknown>, limits: UploadLimits): ServiceError | undefined {
  const name = nameOf(part);
  if (name === undefined) return new ServiceError('invalid_value', NO_NAME);
  if (name === FILE_FIELD) throw new ServiceError('no_file_on_payload', `The "${FILE_FIELD}" part must be a file (with a filename), e.g. curl -F ${FILE_FIELD}=@path`);
  if (!plan.fields.includes(name) || part.fieldnameTruncated) {
    const takes = plan.fields.length === 0 ? `only "${FILE_FIELD}"` : `"${FILE_FIELD}" and ${plan.fields.map((f) => `"${f}"`).join(', ')}`;
    return new ServiceError('invalid_value', `Unknown form field "${name.slice(0, 100)}"; this endpoint takes ${takes}`);
  }
  if (part.valueTruncated) throw new ServiceError('payload_too_large', `Form field "${name}" is larger than ${sizeText(limits.fieldSize)}`);
  if (Object.hasOwn(fields, name)) return new ServiceError('invalid_value', `Form field "${name}" is given more than once`);
  fields[name] = part.value;
  return undefined;
}

/** What a form without a file answers, given its first other problem. */
function noFile(plan: FormPlan, problem: ServiceError): ServiceError {
  if (plan.fileOptional) return problem;
  return new ServiceError('no_file_on_payload', `No file in the request: send it as the "${FILE_FIELD}" part (e.g. curl -F ${FILE_FIELD}=@path). Also: ${problem.message}`);
}

/**
 * The bytes of a file part as it arrives. Before it reports the end, it checks that the file
 * was not cut at the size limit and that nothing follows it in the form: every field has come
 * already, so a later part could only be refused, and the engine must not keep the file then.
 */
async function* streamed(file: MultipartFile, parts: AsyncIterator<Multipart>, limits: UploadLimits): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of file.file) yield chunk as Buffer;
  } catch (error) {
    throw formError(error);
  }
  if (file.file.truncated) throw fileTooLarge(limits);
  const after = await nextPart(parts);
  if (!after.done) {
    const name = nameOf(after.value);
    if (name === undefined) throw new ServiceError('invalid_value', NO_NAME);
    throw new ServiceError('invalid_value', `Unexpected form part "${name.slice(0, 100)}" after the file: send each field once, before the file`);
  }
}

/** Writes a file part to a temporary file; nothing is left behind when it fails. */
async function spool(file: MultipartFile, ctx: ApiContext): Promise<string> {
  const path = join(ctx.spoolDir, randomUUID());
  try {
    await pipeline(file.file, createWriteStream(path, { flags: 'wx' }));
  } catch (error) {
    await rm(path, { force: true });
    // The disk failing is ours to report (internal_error); anything else is the form's fault.
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') throw error;
    throw formError(error);
  }
  if (file.file.truncated) {
    await rm(path, { force: true });
    throw fileTooLarge(ctx.limits.upload);
  }
  return path;
}

/**
 * Reads an upload form and runs `use` with its fields and file. A request that is not
 * multipart/form-data runs `use` with no fields and no file (the engine then answers
 * `no_file_on_payload`, or `missing_field` where a field is required).
 */
export async function withForm<T>(request: FastifyRequest, ctx: ApiContext, plan: FormPlan, use: (input: FormInput) => Promise<T>): Promise<T> {
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (!request.isMultipart()) return use({ fields, file: undefined });
  const limits = ctx.limits.upload;
  const parts = request.parts({ limits: { ...limits, files: 1 } })[Symbol.asyncIterator]();
  let spooled: string | undefined;
  let name: string | undefined;
  // The form's first problem that must wait for the end of the form (see takeField).
  let problem: ServiceError | undefined;
  try {
    for (;;) {
      const next = await nextPart(parts);
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        problem ??= takeField(part, plan, fields, limits);
        continue;
      }
      const partName = nameOf(part);
      if (partName !== FILE_FIELD) {
        part.file.resume();
        if (partName === undefined) throw new ServiceError('invalid_value', NO_NAME);
        throw new ServiceError('invalid_value', `Unknown file part "${partName.slice(0, 100)}": send the file as "${FILE_FIELD}"`);
      }
      if (problem) {
        part.file.resume();
        throw problem;
      }
      name = safeFileName(part.filename);
      if (plan.fields.every((f) => Object.hasOwn(fields, f))) {
        return await use({ fields, file: { data: streamed(part, parts, limits), name } });
      }
      spooled = await spool(part, ctx);
    }
    if (problem) throw spooled === undefined ? noFile(plan, problem) : problem;
    return await use({ fields, file: spooled === undefined ? undefined : { path: spooled, name } });
  } finally {
    if (spooled !== undefined) await rm(spooled, { force: true });
  }
}
