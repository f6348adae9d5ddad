/**
 * Decides whether an IPC message or a navigation comes from our own page. Pure (no Electron)
 * so it is unit-tested beside; trusted-ipc and the window's navigation guard use it.
 */

/**
 * Tells whether `url` (a sender frame's or a navigation target's) is the app's own page.
 *
 * An `app:` app URL (the renderer as the app: protocol serves it) trusts that scheme and host;
 * a `file:` app URL trusts exactly that file, whatever its query or hash; an `http(s):` app
 * URL (the electron-vite dev server) trusts its origin. Anything
 * unparsable, another scheme, file, host or port is untrusted.
 *
 * @example isTrustedSender(frame.url, 'file:///opt/Proofdesk/resources/app.asar/out/renderer/index.html')
 * @param url the URL to check; undefined or empty (a destroyed frame) is untrusted
 * @param appUrl the URL the main window loads
 */
export function isTrustedSender(url: string | undefined, appUrl: string): boolean {
  if (!url) return false;
  let actual: URL;
  let expected: URL;
  try {
    actual = new URL(url);
    expected = new URL(appUrl);
  } catch {
    return false;
  }
  if (expected.protocol === 'file:') {
    return actual.protocol === 'file:' && actual.host === expected.host && actual.pathname === expected.pathname;
  }
  if (expected.protocol === 'http:' || expected.protocol === 'https:') {
    return actual.origin === expected.origin;
  }
  // The app: protocol (app-protocol.ts) serves only the renderer's own files, on one host.
  if (expected.protocol === 'app:') {
    return actual.protocol === 'app:' && actual.host === expected.host && actual.username === '' && actual.password === '';
  }
  return false;
}
