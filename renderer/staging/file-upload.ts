/**
 * Uploads dropped or chosen files to the web bridge (main/app/bridge-uploads.ts), where the
 * browser cannot hand main their paths: each request is a FormData of REQUEST_FILES files,
 * each part named by the file's relative path, and SENDS requests are on their way at a time.
 * The browser streams the files' bytes from disk and the bridge streams them to its private
 * folder, so a large file costs neither memory. No file's `size` is read: each read is a
 * synchronous stat on the page's only thread, and thousands of them take seconds.
 * Answers what was dropped (a file, or the folder it came in), in the order given, for
 * `staging:addPaths`. An abort of `signal` (Cancel) stops the requests and has the bridge
 * delete everything this upload wrote, even once it has finished; so does a failed upload.
 */
import type { IntakeOptions, PickedFile } from './file-intake.js';

const REQUEST_FILES = 250;
const SENDS = 3;

/** Sends each of `files` to the bridge; answers the distinct dropped paths in the order given. */
export async function uploadFiles(files: PickedFile[], { signal, onProgress }: IntakeOptions = {}): Promise<string[]> {
  signal?.throwIfAborted();
  const url = `/upload/${crypto.randomUUID()}`;
  const remove = () => void fetch(url, { method: 'DELETE' }).catch(() => undefined);
  // Cancel, whenever it comes (even after the upload, while the files are staged): nothing stays.
  signal?.addEventListener('abort', remove, { once: true });
  const tops: string[] = [];
  let done = 0;
  /** Sends the files from `from` on, REQUEST_FILES of them. */
  const send = async (from: number) => {
    const to = Math.min(from + REQUEST_FILES, files.length);
    const form = new FormData();
    for (const { file, relPath } of files.slice(from, to)) {
      const clean = relPath.split('/').filter((s) => s !== '').join('/');
      form.append(encodeURIComponent(clean), file, file.name);
    }
    const response = await fetch(url, { method: 'POST', body: form, signal });
    const text = await response.text();
    // The body is the encoded ServiceError, as an IPC call's failure.
    if (!response.ok) throw new Error(text);
    const answered = (JSON.parse(text) as { tops: string[] }).tops;
    answered.forEach((top, k) => (tops[from + k] = top));
    done += to - from;
    onProgress?.(done, files.length);
  };
  try {
    let next = 0;
    const sender = async () => {
      while (next < files.length) {
        const from = next;
        next += REQUEST_FILES;
        await send(from);
      }
    };
    await Promise.all(Array.from({ length: SENDS }, sender));
  } catch (error) {
    // Nothing of a failed upload stays (a cancel has already asked for this).
    if (!signal?.aborted) remove();
    throw error;
  }
  return [...new Set(tops)];
}
