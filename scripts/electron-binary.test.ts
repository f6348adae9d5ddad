import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from './electron-binary.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-electron-pkg-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findElectronBinary (a fake electron package folder)', () => {
  it('finds dist/<path.txt> only when the download was unpacked', () => {
    expect(findElectronBinary(dir, {})).toBeUndefined(); // ELECTRON_SKIP_BINARY_DOWNLOAD=1: no path.txt
    writeFileSync(join(dir, 'path.txt'), 'electron');
    expect(findElectronBinary(dir, {})).toBeUndefined(); // path.txt but no dist/
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(findElectronBinary(dir, {})).toBe(join(dir, 'dist', 'electron'));
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as the electron package does', () => {
    const override = join(dir, 'elsewhere');
    mkdirSync(override);
    expect(findElectronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toBeUndefined();
    writeFileSync(join(override, 'electron'), '');
    expect(findElectronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: override })).toBe(join(override, 'electron'));
  });
});
