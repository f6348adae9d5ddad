/**
 * The peer of issuing: OpenAttestation's `wrapDocuments` (v2) over documents the size of the
 * bench's credentials (a title and the transcript of transcript.ts), in the benchmark's own
 * process. It salts and hashes each document and builds their Merkle tree, with no database,
 * no signature and no chain: a fraction of what issuing a credential does. Its time grows
 * faster than the count, so a size it would take too long at is extrapolated, not run.
 */
import { v2, wrapDocuments } from '@govtechsg/open-attestation';
import { metadataOf } from './transcript.js';

/** The longest a single wrapDocuments call may be expected to take before it is extrapolated instead. */
const MAX_MS = Number(process.env['PROOFDESK_BENCH_OA_MAX_S'] ?? 120) * 1000;

/** Document n: an OpenAttestation v2 document carrying credential n's title and transcript. */
function documentOf(n: number): v2.OpenAttestationDocument {
  return {
    $template: { name: 'transcript', type: v2.TemplateType.EmbeddedRenderer, url: 'https://renderer.bench.example' },
    issuers: [{ name: 'Bench University', documentStore: '0x9178F546D3FF57D7A6352bD61B80cCCD46199C2d', identityProof: { type: v2.IdentityProofType.DNSTxt, location: 'bench.example' } }],
    title: `Diploma ${n}`,
    metadata: metadataOf(n),
    tags: ['graduates-2026'],
  } as v2.OpenAttestationDocument;
}

/** One wrapDocuments call over `count` documents (made beforehand, not timed): documents/s. */
function wrapRate(count: number): { perSecond: number; ms: number } {
  const documents = Array.from({ length: count }, (_, n) => documentOf(n));
  const start = performance.now();
  const wrapped = wrapDocuments(documents);
  const ms = performance.now() - start;
  if (wrapped.length !== count) throw new Error(`wrapDocuments returned ${wrapped.length} of ${count} documents`);
  return { perSecond: count / (ms / 1000), ms };
}

/** What the peer did at one size: run (documents/s and its time), or extrapolated from the largest size run. */
export type PeerFigure = { perSecond: number; ms: number; extrapolated: false } | { perSecond: number; ms: number; extrapolated: true; from: number };

/**
 * wrapDocuments at each count, smallest first. A count whose call would take longer than
 * PROOFDESK_BENCH_OA_MAX_S (default 120 s), judged from the largest count run so far as if
 * time grew with the square of the count, is not run: its figure is that estimate.
 */
export function openAttestationRates(counts: number[]): Map<number, PeerFigure> {
  wrapRate(50); // its JSON schema compiled and the code warm before the first timed call
  const figures = new Map<number, PeerFigure>();
  let largest: { count: number; ms: number } | undefined;
  for (const count of [...counts].sort((a, b) => a - b)) {
    const expectedMs = largest ? largest.ms * (count / largest.count) ** 2 : 0;
    if (largest && expectedMs > MAX_MS) {
      figures.set(count, { perSecond: count / (expectedMs / 1000), ms: expectedMs, extrapolated: true, from: largest.count });
      continue;
    }
    const run = wrapRate(count);
    figures.set(count, { ...run, extrapolated: false });
    largest = { count, ms: run.ms };
  }
  return figures;
}
