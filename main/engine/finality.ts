/**
 * When a block is final, per engine: the chain's `finalized` block tag where the engine uses it
 * and the node serves it, else a depth (`confirmations`: the blocks including the transaction,
 * 1 = its own block). Known public chains default to the tag; dev chains and chains Proofdesk
 * does not know default to the configured depth. docs/chain.md lists the defaults.
 */

/** How an engine decides that a block is final. */
export interface FinalityRule {
  /** Ask the chain's `finalized` block tag; the depth decides only where the node does not serve it. */
  finalizedTag: boolean;
  /** Blocks including the transaction that make it final (1 = its own block). */
  confirmations: number;
}

/**
 * Defaults for well-known public chains: all of them serve `finalized` (a finality gadget on
 * Ethereum and Polygon, the settled L1 batch on the rollups); the depth is the fallback for a node
 * that does not, about as long as the tag usually takes.
 */
export const KNOWN_CHAIN_FINALITY: Readonly<Record<number, { name: string; confirmations: number }>> = {
  1: { name: 'Ethereum', confirmations: 64 },
  11155111: { name: 'Sepolia', confirmations: 64 },
  17000: { name: 'Holesky', confirmations: 64 },
  560048: { name: 'Hoodi', confirmations: 64 },
  137: { name: 'Polygon PoS', confirmations: 128 },
  80002: { name: 'Polygon Amoy', confirmations: 128 },
  8453: { name: 'Base', confirmations: 600 },
  84532: { name: 'Base Sepolia', confirmations: 600 },
  10: { name: 'OP Mainnet', confirmations: 600 },
  11155420: { name: 'OP Sepolia', confirmations: 600 },
  42161: { name: 'Arbitrum One', confirmations: 4800 },
  421614: { name: 'Arbitrum Sepolia', confirmations: 4800 },
};

/** The rule for a chain id and what engines.json says (either may be absent). */
export function finalityRuleFor(chainId: number | null, configured: { finality?: 'finalized' | 'confirmations'; confirmations?: number }): FinalityRule {
  const known = chainId === null ? undefined : KNOWN_CHAIN_FINALITY[chainId];
  return {
    finalizedTag: configured.finality === undefined ? known !== undefined : configured.finality === 'finalized',
    confirmations: configured.confirmations ?? known?.confirmations ?? 1,
  };
}

/** What finality asks of a chain (a ChainClient is one). */
export interface FinalityReader {
  blockNumber(): Promise<bigint>;
  finalizedBlockNumber?(): Promise<bigint | null>;
}

/** How far a mined block is towards final. */
export interface FinalityProgress {
  final: boolean;
  /** Blocks including it now (1 = its own block; 0 when the chain is not that high). */
  confirmations: number;
  /** The depth that makes it final; null when the chain's `finalized` tag decides. */
  required: number | null;
}

/**
 * Whether the block `blockNumber` is final under `rule`, and its confirmations. `seenHead`: the
 * head's number as the caller last saw it (asked here when absent); a head seen before the block
 * was mined counts as the block itself, which the chain holds.
 */
export async function finalityOf(reader: FinalityReader, rule: FinalityRule, blockNumber: bigint, seenHead?: bigint): Promise<FinalityProgress> {
  const head = seenHead === undefined ? await reader.blockNumber() : seenHead > blockNumber ? seenHead : blockNumber;
  const confirmations = head < blockNumber ? 0 : Number(head - blockNumber + 1n);
  if (rule.finalizedTag && reader.finalizedBlockNumber) {
    const finalized = await reader.finalizedBlockNumber();
    if (finalized !== null) return { final: blockNumber <= finalized, confirmations, required: null };
  }
  return { final: confirmations >= rule.confirmations, confirmations, required: rule.confirmations };
}
