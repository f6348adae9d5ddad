/**
 * The peer of issuing: OpenAttestation's `wrapDocuments` (v2) over documents the size of the
 * bench's credentials (open-attestation-job.ts, a process per size). It salts and hashes each
 * document and builds their Merkle tree, with no database, no signature and no chain: a
 * fraction of what issuing a credential does. Its time grows faster than the count at large
 * sizes, so a size above 10,000 is stopped after PROOFDESK_BENCH_OA_MAX_S (default 120 s) and
 * its figure is then a bound: fewer documents/s than count / that time.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** How long a call over more than ALWAYS_FINISH documents may run before it is stopped. */
const MAX_MS = Number(process.env['PROOFDESK_BENCH_OA_MAX_S'] ?? 120) * 1000;
/** Sizes up to this run to the end whatever they take (1,000 and 10,000 take seconds). */
const ALWAYS_FINISH = 10_000;

/** What the peer did at one size: documents/s and the call's time, or (stopped) a bound on both. */
export interface PeerFigure {
  perSecond: number;
  ms: number;
  /** Stopped at `ms`: the call takes longer, `perSecond` is an upper bound. */
  stopped: boolean;
}

/** wrapDocuments of `count` documents in a child process, stopped after `limitMs` (if given). */
function wrapInChild(count: number, limitMs: number | undefined): Promise<PeerFigure> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'open-attestation-job.ts'), String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let stopped = false;
    const timer = limitMs === undefined ? undefined : setTimeout(() => ((stopped = true), child.kill('SIGKILL')), limitMs);
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (stopped) resolve({ perSecond: count / (limitMs! / 1000), ms: limitMs!, stopped: true });
      else if (code === 0) {
        const { ms } = JSON.parse(out) as { ms: number };
        resolve({ perSecond: count / (ms / 1000), ms, stopped: false });
      } else reject(new Error(`OpenAttestation's process for ${count} documents ended with code ${code}`));
    });
  });
}

/** wrapDocuments at each count, one after the other (a count above 10,000 stopped after PROOFDESK_BENCH_OA_MAX_S). */
export async function openAttestationRates(counts: number[]): Promise<Map<number, PeerFigure>> {
  const figures = new Map<number, PeerFigure>();
  for (const count of counts) figures.set(count, await wrapInChild(count, count > ALWAYS_FINISH ? MAX_MS : undefined));
  return figures;
}
