/**
 * A worker thread of OfflinePool (verify-offline-pool.ts): checks each batch of proofs offline
 * (verify-offline.ts) and answers their outcomes in order.
 */
import { parentPort } from 'node:worker_threads';
import { MerklePairMemo } from './merkle-tree.js';
import { checkOffline, type OfflineInput } from './verify-offline.js';

parentPort!.on('message', ({ id, inputs }: { id: number; inputs: OfflineInput[] }) => {
  try {
    // A batch's proofs share the upper part of their tree: each pair hashed once per batch.
    const memo = new MerklePairMemo();
    parentPort!.postMessage({ id, outcomes: inputs.map((input) => checkOffline(input, memo)) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
