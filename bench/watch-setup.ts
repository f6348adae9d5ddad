/** What the watch-folder benchmarks share: an engine, an empty inbox, and a folder beside it for the files to drop in. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { MemorySecretStore } from '../main/secrets/index.js';

/**
 * In `dir`: the engine on `dir/data` (its scheduler ticking every 250 ms), an empty `inbox` to
 * watch and an empty `staging` folder, whose files are renamed into the inbox at once (as a
 * file manager's move does) once the clock runs.
 */
export function watchBenchSetup(dir: string): { engine: Engine; inbox: string; staging: string } {
  const inbox = join(dir, 'inbox');
  const staging = join(dir, 'staging');
  mkdirSync(inbox);
  mkdirSync(staging);
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: true, tickMs: 250, onError: () => undefined } });
  return { engine, inbox, staging };
}
