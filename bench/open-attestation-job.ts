/**
 * OpenAttestation's `wrapDocuments` (v2) over COUNT documents the size of the bench's
 * credentials, in a process of its own so that the benchmark can stop a call that runs too
 * long: `node --import tsx bench/open-attestation-job.ts COUNT`; prints `{"ms": …}` on stdout.
 * A title and the transcript of transcript.ts per document; they are made before the clock starts.
 */
import { v2, wrapDocuments } from '@govtechsg/open-attestation';
import { metadataOf } from './transcript.js';

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

/** One wrapDocuments call over `count` documents: its ms. */
function wrapMs(count: number): number {
  const documents = Array.from({ length: count }, (_, n) => documentOf(n));
  const start = performance.now();
  const wrapped = wrapDocuments(documents);
  const ms = performance.now() - start;
  if (wrapped.length !== count) throw new Error(`wrapDocuments returned ${wrapped.length} of ${count} documents`);
  return ms;
}

const count = Number(process.argv[2]);
if (!(count > 0)) throw new Error('usage: open-attestation-job.ts COUNT');
wrapMs(50); // its JSON schema compiled and the code warm before the timed call
process.stdout.write(`${JSON.stringify({ ms: wrapMs(count) })}\n`);
