/**
 * Remote mode's figures: the app's records table over a remote service, i.e. main's
 * remote-records.ts through RemoteService (undici, the spec's token flow) against `serve` in a
 * process of its own on loopback, on a Partner with 10,000 credentials: a window of 100 rows
 * (GET /credentials, page by page as the table scrolls), and "select all matching" a tag filter
 * (5,000) + add a tag (the filter resolved page by page, then one PATCH /credentials).
 *
 * `npm run bench -- --only remote-mode`.
 */
import type { TaskContext } from '../common/tasks.js';
import { Engine, REALM } from '../main/engine/index.js';
import { RemoteService } from '../main/remote/index.js';
import { remoteEditTags, remoteRecordWindow } from '../main/workspace/remote-records.js';
import { benchDir, percentile, timed, type BenchResult } from './measure.js';
import { startServer, type ServeChild } from './serve-child.js';

const COUNT = 10_000;
const WINDOW = 100;
const WINDOWS = 40;

export async function remoteModeBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-remote-bench-');
  let serve: ServeChild | undefined;
  let remote: RemoteService | undefined;
  try {
    const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
    const partner = engine.partners.add({ name: 'Bench University' });
    log(`remote mode: ${COUNT} credentials...`);
    await engine.serviceFor(partner.partner_id).createCredentials(
      Array.from({ length: COUNT }, (_, i) => ({ title: `Diploma ${i}`, metadata: { student: `Student ${i}` }, tags: [i % 2 === 0 ? 'class-2026' : 'class-2025'] })),
    );
    await engine.close();
    serve = await startServer(['main/cli/index.ts', 'serve', '--port', '0', '--data', dir]);
    remote = new RemoteService({ baseUrl: serve.baseUrl, authUrl: new URL(serve.baseUrl).origin, realm: REALM, clientId: partner.client_id, clientSecret: partner.client_secret });
    const service = remote;
    const sort = { by: 'upload_date', order: 'asc' } as const;
    // Warm-up: the token and the connection pool.
    await remoteRecordWindow(service, { filter: {}, sort, offset: 0, limit: WINDOW });
    const samples: number[] = [];
    for (let i = 0; i < WINDOWS; i++) {
      const offset = ((i * 37) % (COUNT / WINDOW)) * WINDOW;
      const { ms, result } = await timed(() => remoteRecordWindow(service, { filter: i % 2 ? { andTags: ['class-2026'] } : {}, sort, offset: offset % (i % 2 ? COUNT / 2 : COUNT), limit: WINDOW }));
      if (result.rows.length !== WINDOW) throw new Error(`a window of ${result.rows.length} rows, not ${WINDOW}`);
      samples.push(ms);
    }
    log(`remote mode: windows of ${WINDOW} rows p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms`);
    const task: TaskContext = { signal: new AbortController().signal, progress: () => undefined };
    const tagged = await timed(() => remoteEditTags(service, { kind: 'filter', filter: { andTags: ['class-2026'] } }, { mode: 'add', tags: ['honours'] }, task));
    if (tagged.result.changed !== COUNT / 2) throw new Error(`tagged ${tagged.result.changed}, not ${COUNT / 2}`);
    log(`remote mode: select all matching (${COUNT / 2}) + add a tag in ${tagged.ms.toFixed(0)} ms`);
    return [
      { name: `remote mode: records window of ${WINDOW} rows over GET /credentials (${COUNT} credentials), p50`, value: percentile(samples, 50), unit: 'ms' },
      { name: `remote mode: records window of ${WINDOW} rows, p99`, value: percentile(samples, 99), unit: 'ms', target: { value: 1000, better: 'lower' } },
      { name: `remote mode: select all matching a tag (${COUNT / 2}) + add a tag`, value: tagged.ms, unit: 'ms' },
    ];
  } finally {
    await remote?.close();
    await serve?.stop();
  }
}
