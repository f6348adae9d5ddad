import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { extname } from 'node:path';

// Formats without magic bytes (text) or whose magic bytes are too generic (zip-based office
// files are found by file-type itself): the extension is the fallback.
const BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.md': 'text/markdown',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
};

/**
 * The MIME type of a file (its path, or its bytes when they are in memory): from its magic bytes, else from the original name's
 * extension, else undefined (the spec's `file_type` is optional).
 */
export async function detectMimeType(content: string | Uint8Array, originalName: string | undefined): Promise<string | undefined> {
  const sniffed = await (typeof content === 'string' ? fileTypeFromFile(content) : fileTypeFromBuffer(content)).catch(() => undefined);
  if (sniffed) return sniffed.mime;
  return originalName ? BY_EXTENSION[extname(originalName).toLowerCase()] : undefined;
}
