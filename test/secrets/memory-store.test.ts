/** MemorySecretStore: the SecretStore contract in a Map, for tests only. */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../main/secrets/index.js';

describe('MemorySecretStore', () => {
  it('stores, overwrites, reads and deletes like the other stores', async () => {
    const store = new MemorySecretStore();
    expect(store.kind).toBe('memory');
    expect(await store.get('a')).toBeNull();
    await store.set('a', 'one');
    await store.set('a', 'two');
    expect(await store.get('a')).toBe('two');
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.get('a')).toBeNull();
  });

  it('keeps instances apart and nothing beyond the instance', async () => {
    const one = new MemorySecretStore();
    await one.set('a', 'x');
    expect(await new MemorySecretStore().get('a')).toBeNull();
  });

  it('does not show its secrets in util.inspect or JSON', async () => {
    const store = new MemorySecretStore();
    await store.set('a', 'top-secret-value');
    expect(inspect(store, { showHidden: true, depth: 5 })).not.toContain('top-secret-value');
    expect(JSON.stringify(store)).toBe('{"kind":"memory"}');
  });

  it('refuses an empty account and a non-string secret', async () => {
    const store = new MemorySecretStore();
    await expect(store.set('', 'x')).rejects.toThrow(TypeError);
    await expect(store.set('a', undefined as unknown as string)).rejects.toThrow('secret must be a string');
  });
});
