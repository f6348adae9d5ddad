/** A cache of promises by key that forgets a rejection, so the next caller tries again. */

/** `compute` once per `key` while it succeeds; a rejected promise is dropped from the cache. */
export function settledMemo(): <T>(key: string, compute: () => Promise<T>) => Promise<T> {
  const memo = new Map<string, Promise<unknown>>();
  return <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let value = memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      value.catch(() => memo.delete(key));
      memo.set(key, value);
    }
    return value;
  };
}
