/**
 * The files and folders the app itself wrote in this session (exports, key backups): the only
 * paths the page may ask the OS file manager to show, so a page can never make main reveal or
 * probe an arbitrary path.
 */

/** How many recent paths are kept; the toasts that offer "Show in folder" are about the latest few. */
const KEEP = 50;

export class WrittenPaths {
  readonly #paths: string[] = [];

  /** Notes a path the app has just finished writing. */
  remember(path: string): void {
    const at = this.#paths.indexOf(path);
    if (at >= 0) this.#paths.splice(at, 1);
    this.#paths.push(path);
    if (this.#paths.length > KEEP) this.#paths.shift();
  }

  has(path: string): boolean {
    return this.#paths.includes(path);
  }
}
