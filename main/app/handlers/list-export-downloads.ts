/**
 * The browser bridge's downloads of finished list exports: the export task writes the file into
 * a private folder (0700) of this process; once it is complete the page fetches it once from
 * `GET /download/<token>` (a random token), as an attachment, and the file is removed. A file
 * not fetched within ten minutes is removed too. The bridge's origin checks apply as to every
 * request.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';

/** How long a finished export waits to be downloaded. */
const KEEP_MS = 10 * 60 * 1000;
const TOKEN = /^[0-9a-f-]{36}$/;

interface Download {
  path: string;
  fileName: string;
  mediaType: string;
  ready: boolean;
  expiry: NodeJS.Timeout | null;
}

/** A file reserved for an export, and the URL path the page downloads it from. */
export interface ReservedDownload {
  token: string;
  path: string;
  url: string;
}

export class ExportDownloads {
  #root: string | null = null;
  readonly #files = new Map<string, Download>();

  #folder(): string {
    if (this.#root === null) {
      const root = mkdtempSync(join(tmpdir(), 'proofdesk-exports-'));
      this.#root = root;
      process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    }
    return this.#root;
  }

  /** A new file for an export to write; not downloadable until `ready`. */
  reserve(fileName: string, mediaType: string): ReservedDownload {
    const token = randomUUID();
    const path = join(this.#folder(), token);
    this.#files.set(token, { path, fileName, mediaType, ready: false, expiry: null });
    return { token, path, url: `/download/${token}` };
  }

  /** The export is complete: the page may fetch it (once, within KEEP_MS). */
  ready(token: string): void {
    const file = this.#files.get(token);
    if (!file) return;
    file.ready = true;
    file.expiry = setTimeout(() => void this.drop(token), KEEP_MS);
    file.expiry.unref();
  }

  /** Forgets a download and removes its file. */
  async drop(token: string): Promise<void> {
    const file = this.#files.get(token);
    if (!file) return;
    this.#files.delete(token);
    if (file.expiry) clearTimeout(file.expiry);
    await rm(file.path, { force: true });
  }

  /** Hands out a finished export for `GET /download/<token>`, once: the caller sends the file and removes it. */
  take(token: string): { path: string; fileName: string; mediaType: string } {
    const file = TOKEN.test(token) ? this.#files.get(token) : undefined;
    if (!file || !file.ready) throw new ServiceError('not_found', 'No such export to download (each is downloaded once)');
    this.#files.delete(token);
    if (file.expiry) clearTimeout(file.expiry);
    return file;
  }
}

/** The process's export downloads: the export handler reserves them, the bridge serves them. */
export const exportDownloads = new ExportDownloads();
