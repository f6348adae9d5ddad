/**
 * A worker thread of OfflinePool (verify-offline-pool.ts): checks each batch of proofs offline
 * (verify-offline.ts) and answers their outcomes in order.
 */
import { parentPort } from 'node:worker_threads';
import { checkOffline, type OfflineInput } from './verify-offline.js';

parentPort!.on('message', ({ id, inputs }: { id: number; inputs: OfflineInput[] }) => {
  try {
    parentPort!.postMessage({ id, outcomes: inputs.map(checkOffline) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
