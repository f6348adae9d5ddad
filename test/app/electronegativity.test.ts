/**
 * Electronegativity (Doyensec's scanner for Electron misconfigurations) over the app's Electron
 * code as it ships: main/app and preload (TypeScript sources: the built main bundle uses class
 * private properties, which its parser cannot read, so it reported false positives there) and
 * the renderer, with index.html as the build writes it (its CSP tag in place).
 *
 * Every finding must be listed, with its reason, in docs/electronegativity-findings.json: a
 * new finding fails this test, and so does a listed one that no longer occurs (the list stays
 * true). The scanner would fetch translations and Electron's release list from the internet;
 * tests stay on loopback, so its HTTP client (`got`) is replaced by one that refuses, and the
 * check that needs the release list (AvailableSecurityFixesGlobalCheck) is not run.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withCspMeta } from '../../main/app/renderer-csp.js';
import { REPO_ROOT } from '../support/issuing-fixture.js';

const FINDINGS_FILE = join(REPO_ROOT, 'docs', 'electronegativity-findings.json');
/** What is scanned, relative to the repository. */
const SCANNED = ['main/app', 'preload', 'renderer'];
const OFFLINE_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  description: string;
}
interface ScanResult {
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}
interface ListedFinding {
  id: string;
  file: string;
  occurrences: number;
  reason: string;
}

/** The scanner's runner, with its HTTP client replaced by one that never leaves the machine. */
function offlineRunner(): (options: object, forCli: boolean) => Promise<ScanResult> {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const fromScanner = createRequire(join(packageDir, 'dist', 'runner.js'));
  const gotPath = fromScanner.resolve('got');
  const refuse = () => Promise.reject(new Error('no network in tests'));
  fromScanner.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: refuse } as unknown as NodeJS.Module;
  return fromScanner('./runner.js') as (options: object, forCli: boolean) => Promise<ScanResult>;
}

/** The Electron code as it ships, in a temporary folder: sources without tests, index.html as built. */
function stage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-electronegativity-'));
  for (const part of SCANNED) {
    cpSync(join(REPO_ROOT, part), join(dir, part), { recursive: true, filter: (source) => !/\.test\.tsx?$/.test(source) });
  }
  const index = join(dir, 'renderer', 'index.html');
  writeFileSync(index, withCspMeta(readFileSync(index, 'utf8')));
  // Its Electron version comes from package.json.
  cpSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

describe('Electronegativity over the Electron code', () => {
  const dir = stage();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing but the justified findings of docs/electronegativity-findings.json', async () => {
    const log = console.log;
    // The scanner prints progress notes (and that it is offline); they are not findings.
    console.log = () => undefined;
    let result: ScanResult;
    try {
      result = await offlineRunner()({ input: dir, customScan: [], excludeFromScan: OFFLINE_CHECKS, isRelative: false, parserPlugins: [] }, false);
    } finally {
      console.log = log;
    }
    // Every file was read: a file it cannot parse would hide its findings.
    expect(result.errors).toEqual([]);
    expect(filesUnder(dir).some((f) => f.endsWith('index.ts'))).toBe(true);

    const found = new Map<string, ListedFinding>();
    for (const issue of result.issues) {
      const file = issue.file === 'N/A' ? 'N/A' : relative(dir, issue.file);
      const key = `${issue.id} ${file}`;
      const entry = found.get(key) ?? { id: issue.id, file, occurrences: 0, reason: `${issue.description} (line ${issue.location.line})` };
      entry.occurrences += 1;
      found.set(key, entry);
    }
    const listed = (JSON.parse(readFileSync(FINDINGS_FILE, 'utf8')) as { findings: ListedFinding[] }).findings;
    for (const entry of listed) expect(entry.reason.length, `${entry.id} ${entry.file} needs a reason`).toBeGreaterThan(40);
    const shape = (f: ListedFinding) => ({ id: f.id, file: f.file, occurrences: f.occurrences });
    const byKey = (a: { id: string; file: string }, b: { id: string; file: string }) => `${a.id} ${a.file}`.localeCompare(`${b.id} ${b.file}`);
    // New findings: fix them, or list them with the reason they are acceptable.
    const unlisted = [...found.values()].filter((f) => !listed.some((l) => l.id === f.id && l.file === f.file && l.occurrences === f.occurrences));
    expect(unlisted, 'findings not in docs/electronegativity-findings.json').toEqual([]);
    expect(listed.map(shape).sort(byKey), 'listed findings that no longer occur').toEqual([...found.values()].map(shape).sort(byKey));
  });
});
