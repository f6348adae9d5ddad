/** Saves text or bytes the page already holds as a download (a proof JSON, a report, a stored original in the browser). */
export function saveText(fileName: string, text: string | Uint8Array<ArrayBuffer>, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  saveUrl(fileName, url);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Starts the browser's download of what a URL holds (an object URL, a file the bridge serves), saved as `fileName`. */
export function saveUrl(fileName: string, url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
}
