/**
 * Uploads dropped or chosen files to the web bridge (main/app/bridge-uploads.ts), where the
 * browser cannot hand main their paths: each request is a FormData of up to REQUEST_FILES
 * files (REQUEST_BYTES at most; a larger file goes alone), each part named by the file's
 * relative path, and SENDS requests are on their way at a time. The browser streams the
 * files' bytes from disk; the bridge streams them to its private folder. Answers what was
 * dropped (a file, or the folder it came in), in the order given, for `staging:addPaths`.
 * An abort of `signal` (Cancel) stops the requests and has the bridge delete everything this
 * upload wrote, even once it has finished; so does a failed upload.
 */
import type { IntakeOptions, PickedFile } from './file-intake.js';

const REQUEST_FILES = 500;
const REQUEST_BYTES = 8 * 1024 * 1024;
const SENDS = 3;

/** The files in requests: consecutive runs within REQUEST_FILES and REQUEST_BYTES. */
function requestsOf(files: PickedFile[]): { from: number; to: number }[] {
  const requests: { from: number; to: number }[] = [];
  let from = 0;
  let bytes = 0;
  for (const [i, { file }] of files.entries()) {
    if (i > from && (i - from >= REQUEST_FILES || bytes + file.size > REQUEST_BYTES)) {
      requests.push({ from, to: i });
      from = i;
      bytes = 0;
    }
    bytes += file.size;
  }
  if (from < files.length) requests.push({ from, to: files.length });
  return requests;
}

/** Sends each of `files` to the bridge; answers the distinct dropped paths in the order given. */
export async function uploadFiles(files: PickedFile[], { signal, onProgress }: IntakeOptions = {}): Promise<string[]> {
  signal?.throwIfAborted();
  const url = `/upload/${crypto.randomUUID()}`;
  const remove = () => void fetch(url, { method: 'DELETE' }).catch(() => undefined);
  // Cancel, whenever it comes (even after the upload, while the files are staged): nothing stays.
  signal?.addEventListener('abort', remove, { once: true });
  const tops: string[] = [];
  const requests = requestsOf(files);
  let done = 0;
  const send = async ({ from, to }: { from: number; to: number }) => {
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
      while (next < requests.length) await send(requests[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(SENDS, requests.length) }, sender));
  } catch (error) {
    // Nothing of a failed upload stays (a cancel has already asked for this).
    if (!signal?.aborted) remove();
    throw error;
  }
  return [...new Set(tops)];
}
