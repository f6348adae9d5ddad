/**
 * The window's own preferences (language, column choices, a panel's width, the last export
 * format) in the page's local storage. Neither call throws: a locked-down profile refuses
 * storage, and the window then works with its defaults, forgetting its choices on reload.
 */

/** The value kept under `key`, or null. */
export function readKept(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Keeps a value under `key` (null forgets it); quietly not kept where storage is refused. */
export function keep(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Not kept: applied for now, forgotten on reload.
  }
}
