import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anvilPackageName, resolveAnvilBinary } from './anvil-binary.js';

describe('anvil binary', () => {
  it('picks the platform package the way @foundry-rs/anvil does', () => {
    expect(anvilPackageName('linux', 'x64')).toBe('@foundry-rs/anvil-linux-amd64');
    expect(anvilPackageName('darwin', 'arm64')).toBe('@foundry-rs/anvil-darwin-arm64');
    expect(anvilPackageName('win32', 'x64')).toBe('@foundry-rs/anvil-win32-amd64');
    expect(anvilPackageName('win32', 'arm64')).toBeUndefined();
    expect(anvilPackageName('freebsd', 'x64')).toBeUndefined();
  });

  it('finds the installed binary', () => {
    expect(existsSync(resolveAnvilBinary())).toBe(true);
  });
});
