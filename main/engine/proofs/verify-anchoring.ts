/**
 * The chain half of the blockchain step (verify-proof.ts): is the proof's root issued on its
 * registry now, is the registry the Partner's with the proof's signing key, is the proof's
 * transaction the registry's issue(root), and is its block final? It asks what the chain holds
 * now — never an exact date stored in the proof — so a proof whose transaction a reorganisation
 * moved to a later block still verifies (the real block and date are reported), and one whose
 * transaction is not (or no longer) on the chain is `pending` with the reason: the issuer's engine
 * sends it again from its stored signed copy. Only what no genuine proof can show fails: a
 * registry that is not the Partner's, or a transaction that is not the issue of this root.
 * Everything it reads is shared by the proofs of one batch (registry, root, transaction, block),
 * so verifying many proofs asks it once per batch (VerifyOptions.share) instead of once per proof.
 * The answer is a value, also when a read throws: the step then fails the same way for each
 * proof that shares it (what the step had found so far included).
 */
import type { Address, Hex, RegistryInfo } from '../../chain/index.js';
import { RegistryNotFoundError } from '../../chain/errors.js';
import type { FinalityRule } from '../finality.js';
import type { ChainReader } from './verify-proof.js';

export interface AnchoringQuestion {
  reader: ChainReader;
  registry: Address;
  /** The root as 0x hex. */
  root: Hex;
  txId: Hex;
  /** The Partner's chain account the proof names. */
  partnerAddress: string;
  /** The proof's Ed25519 public key (hex, no 0x). */
  publicKey: string;
  /** When the transaction's block counts as final. */
  finality: FinalityRule;
}

/** Where the chain holds the transaction now. */
export interface AnchoredBlock {
  number: bigint;
  /** The block's time (ISO 8601): the date the root was issued, as the chain says now. */
  date: string;
}

interface Found {
  actualRoot: string | null;
  confirmations: string;
  block: AnchoredBlock | null;
}

/** The step's outcome and the description fields it fills; `error` when a read threw. */
export type Anchoring = (Found & { status: 'passed' | 'failed' | 'pending'; reason?: string }) | (Found & { error: unknown });

// The calldata encoder (viem) on first use: a proof checked offline never loads it.
let registryCalls: Promise<{ encodeIssue(root: Hex): Hex }> | undefined;

/** Reads the chain for the anchoring of one root; never throws (a thrown read is `error`). */
export async function readAnchoring(q: AnchoringQuestion): Promise<Anchoring> {
  const found: Found = { actualRoot: null, confirmations: '0', block: null };
  const done = (status: 'passed' | 'failed' | 'pending', reason?: string): Anchoring => ({ ...found, status, ...(reason !== undefined ? { reason } : {}) });
  try {
    const { reader, registry, root, txId } = q;
    // The registry must be the Partner's and bind the proof's signing key.
    let info: RegistryInfo;
    try {
      info = await reader.readRegistry(registry);
    } catch (error) {
      if (!(error instanceof RegistryNotFoundError)) throw error;
      if (await deploymentNotYetMined(reader, registry, q.partnerAddress as Address)) {
        return done('pending', `the registry ${registry} is not on the chain now: its deployment was taken out of the chain (a reorganisation); the issuer's engine sends it again`);
      }
      return done('failed');
    }
    if (info.owner.toLowerCase() !== q.partnerAddress.toLowerCase()) return done('failed');
    if (info.signingKey.toLowerCase() !== `0x${q.publicKey}`) return done('failed');

    const issuedAt = await reader.issuedAt(registry, root);
    if (issuedAt !== 0n) found.actualRoot = root.slice(2);
    const tx = await reader.getTransaction(txId);
    if (tx) {
      // The proof's transaction must be the issue of this root on this registry, wherever it is mined.
      const { encodeIssue } = await (registryCalls ??= import('../../chain/registry-calls.js'));
      if (tx.to?.toLowerCase() !== registry.toLowerCase() || tx.input.toLowerCase() !== encodeIssue(root).toLowerCase()) return done('failed');
    }
    const receipt = tx ? await reader.getReceipt(txId) : null;
    if (!receipt) {
      if (issuedAt !== 0n) return done('pending', `the registry holds the root, but transaction ${txId} is not on the chain now (a reorganisation may have replaced it)`);
      return done(
        'pending',
        tx
          ? `transaction ${txId} is waiting to be mined (a reorganisation took it out of its block)`
          : `transaction ${txId} is not on the chain now (a reorganisation may have removed it; the issuer's engine sends it again)`,
      );
    }
    // A proof is handed out only once its transaction succeeded, and a reorganisation re-includes
    // that same transaction: a reverted one is not what issued the root.
    if (receipt.status !== 'success') return done('failed');
    const minedAt = await reader.blockTimestamp(receipt.blockNumber);
    found.block = { number: receipt.blockNumber, date: minedAt.toISOString() };
    // A node answering from two sides of a reorganisation (load-balanced nodes): ask again later.
    if (issuedAt !== BigInt(Math.floor(minedAt.getTime() / 1000))) return done('pending', `the chain's answers about transaction ${txId} disagree (it is reorganising): try again`);

    const confirmations = await reader.confirmations(txId);
    found.confirmations = String(confirmations);
    if (confirmations === 0) return done('pending', `transaction ${txId} is being moved to another block (a reorganisation): try again`);
    if (q.finality.finalizedTag && reader.finalizedBlockNumber) {
      const finalized = await reader.finalizedBlockNumber();
      if (finalized !== null) return done(receipt.blockNumber <= finalized ? 'passed' : 'pending');
    }
    return done(confirmations >= q.finality.confirmations ? 'passed' : 'pending');
  } catch (error) {
    return { ...found, error };
  }
}

/** Nonces after the account's count where a registry taken out by a reorganisation may be deployed again. */
const REDEPLOY_WINDOW = 64;

/**
 * Whether `registry` is where the Partner's account deploys a contract at a nonce it has not used
 * on the chain now: a deployment a reorganisation took out (only the Partner can deploy there).
 * Any other empty address — or one at a nonce already used — never holds the Partner's registry.
 */
async function deploymentNotYetMined(reader: ChainReader, registry: Address, partner: Address): Promise<boolean> {
  if (!reader.transactionCount) return false;
  const count = await reader.transactionCount(partner);
  const { getContractAddress } = await import('./contract-address.js');
  for (let nonce = count; nonce < count + REDEPLOY_WINDOW; nonce++) {
    if (getContractAddress({ from: partner, nonce: BigInt(nonce) }).toLowerCase() === registry.toLowerCase()) return true;
  }
  return false;
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
