/**
 * The chain half of the blockchain step (verify-proof.ts): is the proof's root issued on its
 * registry, by its transaction, at its date, with enough confirmations, and is the registry the
 * Partner's with the proof's signing key? Everything it reads is shared by the proofs of one
 * batch (registry, root, transaction, block, issuer), so verifying many proofs asks it once per
 * batch (VerifyOptions.share) instead of once per proof; a single proof asks it for itself. The
 * answer is a value, also when a read throws: the step then fails the same way for each proof
 * that shares it (what the step had found so far included).
 */
import { parseIsoDate } from '../../../common/validate.js';
import type { Address, Hex, RegistryInfo } from '../../chain/index.js';
import { RegistryNotFoundError } from '../../chain/errors.js';
import type { ChainReader } from './verify-proof.js';

export interface AnchoringQuestion {
  reader: ChainReader;
  registry: Address;
  /** The root as 0x hex. */
  root: Hex;
  txId: Hex;
  /** The proof's issued_date (ISO 8601). */
  issuedDate: string;
  /** The Partner's chain account the proof names. */
  partnerAddress: string;
  /** The proof's Ed25519 public key (hex, no 0x). */
  publicKey: string;
  required: number;
}

/** The step's outcome and the description fields it fills; `error` when a read threw. */
export type Anchoring =
  | { status: 'passed' | 'failed' | 'pending'; actualRoot: string | null; confirmations: string }
  | { error: unknown; actualRoot: string | null; confirmations: string };

// The calldata encoder (viem) on first use: a proof checked offline never loads it.
let registryCalls: Promise<{ encodeIssue(root: Hex): Hex }> | undefined;

/** Reads the chain for the anchoring of one root; never throws (a thrown read is `error`). */
export async function readAnchoring(q: AnchoringQuestion): Promise<Anchoring> {
  let actualRoot: string | null = null;
  const done = (status: 'passed' | 'failed' | 'pending', confirmations = '0'): Anchoring => ({ status, actualRoot, confirmations });
  try {
    const { reader, registry, root, txId } = q;
    // The registry must be the Partner's and bind the proof's signing key.
    let info: RegistryInfo;
    try {
      info = await reader.readRegistry(registry);
    } catch (error) {
      if (error instanceof RegistryNotFoundError) return done('failed');
      throw error;
    }
    if (info.owner.toLowerCase() !== q.partnerAddress.toLowerCase()) return done('failed');
    if (info.signingKey.toLowerCase() !== `0x${q.publicKey}`) return done('failed');

    // The root must be issued there, by the proof's transaction, at the proof's date.
    const issuedAt = await reader.issuedAt(registry, root);
    if (issuedAt === 0n) return done('failed');
    actualRoot = root.slice(2);
    const receipt = await reader.getReceipt(txId);
    if (!receipt || receipt.status !== 'success') return done('failed');
    const tx = await reader.getTransaction(txId);
    const { encodeIssue } = await (registryCalls ??= import('../../chain/registry-calls.js'));
    if (!tx || tx.to?.toLowerCase() !== registry.toLowerCase() || tx.input.toLowerCase() !== encodeIssue(root).toLowerCase()) return done('failed');
    const minedAt = BigInt(Math.floor((await reader.blockTimestamp(receipt.blockNumber)).getTime() / 1000));
    const claimed = BigInt(Math.floor(parseIsoDate(q.issuedDate, 'issued_date') / 1000));
    if (minedAt !== claimed || issuedAt !== minedAt) return done('failed');

    const confirmations = await reader.confirmations(txId);
    return done(confirmations >= q.required ? 'passed' : 'pending', String(confirmations));
  } catch (error) {
    return { error, actualRoot, confirmations: '0' };
  }
}

/** For VerifyOptions.share: an anchoring whose read threw is rejected, so that it is not kept... */
export function keptUnlessThrown(anchoring: Anchoring): Promise<Anchoring> {
  return 'error' in anchoring ? Promise.reject(new ThrownAnchoring(anchoring)) : Promise.resolve(anchoring);
}

/** ...and turned back into the value here (any other rejection is the share's own). */
export function thrownOf(reason: unknown): Anchoring {
  if (reason instanceof ThrownAnchoring) return reason.anchoring;
  throw reason;
}

class ThrownAnchoring extends Error {
  constructor(readonly anchoring: Anchoring) {
    super('An anchoring read failed');
  }
}
