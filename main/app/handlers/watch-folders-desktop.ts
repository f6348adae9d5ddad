/**
 * What only the desktop app can do for the Watch folders view: the OS folder picker and opening
 * a folder in the file manager. Electron's main (main/app/index.ts) plugs them in; the browser
 * bridge has none, so the view asks for a path and shows the output folder's path instead.
 */
export interface WatchFolderDesktop {
  /** The OS folder picker; null when cancelled. */
  pickFolder(): Promise<string | null>;
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
