/**
 * The page's side of the browser bridge's file intake (staging-upload.ts is main's side),
 * appended to /bridge.js: `window.proofdeskFiles.upload(files, {signal, onProgress})` uploads
 * each `{file, relPath}` and answers the distinct paths to stage, in the order dropped.
 *
 * Why it is built this way, for a drop of thousands of small files:
 * - Chromium's own work of reading a dropped file dominates, however the file is read.
 *   `File.size` costs a synchronous stat in the browser on the page's only thread, and a Blob or
 *   FormData of Files costs more than reading them, so the files are read with `arrayBuffer()`
 *   (a file's size is its byte count), and many at once: Chromium batches its messages, so
 *   asking for many reads together costs it less CPU than asking for a few at a time.
 * - The window is as many files as READ_BYTES holds at the largest size seen so far (between
 *   READ_MIN and READ_MAX; READ_MIN to begin with): 1,000 proofs at once, 16 scans of a
 *   megabyte. A file larger than SMALL is sent alone, streamed by the browser. The next window
 *   is read while the last is sent.
 *   Asking for a read costs the page's thread time, so a window is asked for ASK files a task
 *   (a whole window in one task would make it a long task).
 * - Up to REQUEST_FILES small files (REQUEST_BYTES at most) travel in one framed request,
 *   `{"path","size"}\n` + bytes each, as a Blob of those parts (one ArrayBuffer of them costs
 *   Chromium more: fetch copies it on the page's thread); SENDS requests at a time. Main
 *   hashes and checks each file from the bytes it receives. Requests are not made larger than
 *   that: handing one to fetch is one task of the page.
 * - Progress is reported as requests finish. An abort of `signal` (Cancel) stops the requests
 *   and has the bridge delete everything this upload wrote, even once it has finished; so does
 *   a failed upload, so that nothing half-sent stays behind.
 * The price: a file is read before its size is known, so a large file is held in the page's
 * memory once (the window shrinks to READ_MIN files when large ones come).
 */
export const UPLOAD_BRIDGE_SCRIPT = `
(() => {
  const SMALL = 1024 * 1024;
  const REQUEST_BYTES = 4 * 1024 * 1024;
  const REQUEST_FILES = 500;
  const SENDS = 3;
  const READ_BYTES = 16 * 1024 * 1024;
  const READ_MIN = 16;
  const READ_MAX = 1000;
  const ASK = 32;
  // A task of its own (nested timeouts are clamped to a minimum delay after a few).
  const nextTask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
  const clean = (relPath) => relPath.split('/').filter((s) => s !== '');
  const call = async (url, init) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    return JSON.parse(text);
  };
  const upload = async (files, options = {}) => {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const batch = crypto.randomUUID();
    const remove = () => { fetch('/upload/' + batch, { method: 'DELETE' }).catch(() => undefined); };
    // Cancel, whenever it comes (even after the upload, while the files are staged): nothing stays.
    signal?.addEventListener('abort', remove, { once: true });
    const total = files.length;
    let done = 0;
    const progress = (n) => { done += n; onProgress?.(done, total); };
    const tops = new Map();
    const note = (top, index) => { if (!tops.has(top) || tops.get(top) > index) tops.set(top, index); };
    const sendAlone = async ({ file, relPath, index }) => {
      const path = clean(relPath).map(encodeURIComponent).join('/');
      const { top } = await call('/upload/' + batch + '/' + path, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file, signal });
      note(top, index);
      progress(1);
    };
    const sendFramed = async (items) => {
      // Handing a request to fetch is costly for the page: in a task of its own.
      await nextTask();
      const parts = [];
      for (const { relPath, bytes } of items) parts.push(JSON.stringify({ path: clean(relPath).join('/'), size: bytes.byteLength }) + '\\n', bytes);
      const { tops: answered } = await call('/upload/' + batch, { method: 'POST', headers: { 'content-type': 'application/x-proofdesk-files' }, body: new Blob(parts), signal });
      answered.forEach((top, i) => note(top, items[i].index));
      progress(items.length);
    };
    // Requests in flight; a failed one fails the upload at the next wait for a free one, or at the end.
    const sending = new Set();
    const send = async (work) => {
      while (sending.size >= SENDS) await Promise.race(sending);
      const request = work().finally(() => sending.delete(request));
      request.catch(() => undefined); // seen at the next wait, not reported as unhandled meanwhile
      sending.add(request);
    };
    let largest = 0;
    const read = async (at) => {
      // Nothing read yet: READ_MIN files, until their sizes say how many more fit.
      const size = largest === 0 ? READ_MIN : Math.max(READ_MIN, Math.min(READ_MAX, Math.floor(READ_BYTES / largest)));
      const items = files.slice(at, at + size).map((item, k) => ({ ...item, index: at + k }));
      const reads = [];
      for (let from = 0; from < items.length; from += ASK) {
        // Asking for a read costs the page time: a few dozen a task, so that it stays responsive.
        if (from > 0) await nextTask();
        for (const item of items.slice(from, from + ASK)) {
          reads.push(item.file.arrayBuffer().then((bytes) => {
            largest = Math.max(largest, bytes.byteLength);
            return { item, bytes };
          }, () => ({ item, bytes: null })));
        }
      }
      return { read: await Promise.all(reads), next: at + items.length };
    };
    try {
      let pending = [];
      let bytes = 0;
      const flush = async () => {
        const items = pending;
        pending = [];
        bytes = 0;
        if (items.length > 0) await send(() => sendFramed(items));
      };
      let reading = total > 0 ? read(0) : null;
      while (reading) {
        const { read: window, next } = await reading;
        signal?.throwIfAborted();
        // The next window is read while this one is framed and sent.
        reading = next < total ? read(next) : null;
        for (const { item, bytes: buffer } of window) {
          // Too large to frame, or unreadable as a whole here: the browser streams it.
          if (buffer === null || buffer.byteLength > SMALL) { await send(() => sendAlone(item)); continue; }
          if (pending.length >= REQUEST_FILES || bytes + buffer.byteLength > REQUEST_BYTES) await flush();
          pending.push({ relPath: item.relPath, index: item.index, bytes: buffer });
          bytes += buffer.byteLength;
        }
      }
      await flush();
      await Promise.all(sending);
    } catch (error) {
      // Nothing of a failed upload stays (a cancel has already asked for this).
      if (!signal?.aborted) remove();
      throw error;
    }
    // In the order they were dropped, however the uploads finished.
    return [...tops.entries()].sort((a, b) => a[1] - b[1]).map(([top]) => top);
  };
  Object.defineProperty(window, 'proofdeskFiles', { value: Object.freeze({ kind: 'upload', upload }), enumerable: true });
})();
`;
