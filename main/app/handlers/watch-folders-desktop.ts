/**
 * What only the desktop app can do for the Watch folders view: opening a folder in the file
 * manager. Electron's main (main/app/index.ts) plugs it in; the browser bridge has none, so the
 * view shows the output folder's path instead. (The OS folder picker is `app:chooseFolder`.)
 */
export interface WatchFolderDesktop {
  /** Opens a folder in the OS file manager; answers an error text, empty when it worked (shell.openPath). */
  openPath(path: string): Promise<string>;
}

let desktop: WatchFolderDesktop | null = null;

export function setWatchFolderDesktop(actions: WatchFolderDesktop | null): void {
  desktop = actions;
}

export function watchFolderDesktop(): WatchFolderDesktop | null {
  return desktop;
}
