/**
 * A short run of `npm run torture -- --public-chain` (scripts/torture-public-chain.ts): anvil as
 * Sepolia mining a block a second, `issue --engine sepolia --now` batches killed at random, while
 * reorganisations, fee spikes below and above the cap, rollbacks and dropped transactions are
 * injected. The run checks its own invariants (no genuine proof ever `failed`, no root anchored
 * twice, no credential lost, every job finished) and prints what it injected.
 */
import { describe, expect, it } from 'vitest';
import { runTsChild } from '../support/issuing-fixture.js';

describe('torture --public-chain (a smoke run)', () => {
  it('injects reorganisations and fee spikes while jobs issue, and finds no violation', async () => {
    const run = await runTsChild('scripts/torture.ts', ['--public-chain', '--reorgs', '3', '--spikes', '2', '--kills', '1', '--files', '4', '--seed', '42'], { ...process.env }, 150_000);
    const summary = run.stdout.split('\n').find((line) => line.startsWith('total: '));
    expect(summary, run.stdout + run.stderr).toBeDefined();
    const count = (what: RegExp) => Number(what.exec(summary!)?.[1]);
    expect(count(/ (\d+) reorgs/)).toBeGreaterThanOrEqual(3);
    expect(count(/ (\d+) fee spikes/)).toBeGreaterThanOrEqual(2);
    expect(count(/ (\d+) proofs/)).toBeGreaterThan(0);
    expect(count(/ (\d+) failed,/)).toBe(0);
    expect(count(/ (\d+) violations/), run.stdout).toBe(0);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 180_000);
});
