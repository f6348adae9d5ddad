/**
 * One async task at a time per key (a Partner's account on one engine): its transactions need
 * consecutive nonces, so they are signed and sent in order.
 */
export class Exclusive {
  private readonly tails = new Map<string, Promise<unknown>>();

  isBusy(key: string): boolean {
    return this.tails.has(key);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
