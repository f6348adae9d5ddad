/**
 * electron-builder.yml as the packager reads it: valid against app-builder-lib's own schema
 * (so a misspelt key cannot pass silently), with every Electron fuse of the security checklist
 * set, and the app packed into an ASAR archive (which onlyLoadAppFromAsar and the integrity
 * check need).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/issuing-fixture.js';

const config = parse(readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const require = createRequire(import.meta.url);

describe('electron-builder.yml', () => {
  it('sets every fuse of the security checklist', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the app into app.asar (the fuses that load only from it need it)', () => {
    expect(config.asar ?? true).toBe(true);
  });

  it("is valid against electron-builder's own configuration schema", () => {
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(config), ajv.errorsText(validate.errors)).toBe(true);
    // The schema knows every fuse this file sets (none is silently ignored).
    const fuses = (schema as { definitions: Record<string, { properties: Record<string, unknown> }> }).definitions.FuseOptionsV1!.properties;
    for (const key of Object.keys(config.electronFuses as object)) expect(Object.keys(fuses)).toContain(key);
  });
});
