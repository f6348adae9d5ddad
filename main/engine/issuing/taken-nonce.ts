/**
 * What a stored transaction's nonce holds, when the node says it is used ("nonce too low") or that
 * a pending transaction holds it ("replacement transaction underpriced") and none of the
 * transaction's own variants answers by hash. Neither answer counts as "dropped" on its own: a
 * load-balanced endpoint whose nodes disagree says both about a transaction that is mined. The
 * transaction is given up only once the nonce is held, in a final block, by a transaction this
 * data directory did not sign — then it can never be mined — and, for an issue, once the
 * registry shows its root not issued; a root issued meanwhile settles the job with the
 * transaction that issued it. A transaction signed elsewhere with this account's key (another
 * Proofdesk with the same restored key) is named as such while the engine waits for it.
 */
import { KeyInUseElsewhereError, NonceConflictError, type Address, type ChainClient, type Hex, type ReplacementUnderpricedError } from '../../chain/index.js';
import { inTransaction } from '../database.js';
import { finalityOf } from '../finality.js';
import { cached } from '../list-query.js';
import { adoptMinedVariant, loadTx, storeVariant, type ChainTx } from './chain-txs.js';
import type { IssuingContext } from './issuing-context.js';

/**
 * What became of the transaction: `adopted` (one of its own variants holds the nonce: the next
 * look reads its receipt), `settled` (its root was issued by another transaction, now recorded
 * as `txId` for the caller to link), or `released` (dropped: nothing of it can be mined; the
 * caller signs again at the next free nonce).
 */
export type TakenNonce = { outcome: 'adopted' } | { outcome: 'settled'; txId: number } | { outcome: 'released'; holder: Hex };

/** What the node answered: the nonce is `used` ("nonce too low"), or `held` by a pending transaction ("replacement transaction underpriced"). */
export type NodeSaid = 'used' | 'held';

/** What the node's refusal of a broadcast says about the nonce. */
export function nodeSaid(error: NonceConflictError | ReplacementUnderpricedError): NodeSaid {
  return error instanceof NonceConflictError ? 'used' : 'held';
}

/** The nonce is not settled yet, for a reason that is not another holder of the key: the transaction waits. */
export class NonceUnsettledError extends Error {
  override name = 'NonceUnsettledError';
}

/** A root the transaction anchors, to look up in the registry before it is given up. */
export interface Anchor {
  registry: Address;
  root: Hex;
}

/**
 * Finds what holds `tx`'s nonce and settles `tx` accordingly (see TakenNonce). Throws
 * KeyInUseElsewhereError while a transaction not signed here holds the nonce and is not final
 * (pending, or in a block not final yet); NonceUnsettledError while it waits for another reason.
 */
export async function resolveTakenNonce(ctx: IssuingContext, engine: string, client: ChainClient, tx: ChainTx, said: NodeSaid, anchor?: Anchor): Promise<TakenNonce> {
  if (await adoptMinedVariant(ctx.db, client, tx)) return { outcome: 'adopted' };
  const variants = cached(ctx.db, 'SELECT raw, hash, sent_block FROM chain_tx_variants WHERE tx_id = ? ORDER BY id').all(tx.id) as { raw: Hex; hash: Hex; sent_block: number | null }[];
  const sentBlocks = variants.map((v) => v.sent_block).filter((b): b is number => b !== null);
  const head = await client.blockNumber();
  const holder = await client.minedByNonce(tx.sender, tx.nonce, head, sentBlocks.length > 0 ? BigInt(Math.min(...sentBlocks)) : undefined);
  if (!holder) {
    // "Used", yet no block up to the head holds it: the node that said so is ahead of the one asked now.
    if (said === 'used') throw new NonceUnsettledError(`the node counts nonce ${tx.nonce} of ${tx.sender} as used, but no block up to ${head} holds it yet`);
    // Not mined: a pending transaction holds it. One of ours the node knows is simply waiting.
    for (const variant of variants) {
      if (await client.isKnown(variant.hash)) throw new NonceUnsettledError(`transaction ${variant.hash} is pending at nonce ${tx.nonce}`);
    }
    throw new KeyInUseElsewhereError(tx.sender, tx.nonce, undefined, 'waiting for it to be mined, then for its block to be final, before signing again at the next free nonce');
  }
  const own = variants.find((v) => v.hash.toLowerCase() === holder.hash.toLowerCase());
  if (own) {
    // Mined, though the node asked by hash did not say so (a lagging node behind a load balancer).
    cached(ctx.db, 'UPDATE chain_txs SET raw = ?, hash = ? WHERE id = ?').run(own.raw, own.hash, tx.id);
    return { outcome: 'adopted' };
  }
  const progress = await finalityOf(client, ctx.chains.finality(engine), holder.blockNumber, head);
  if (!progress.final) {
    const depth = progress.required === null ? 'the chain to finalize its block' : `its block to be final (${progress.confirmations} of ${progress.required} blocks)`;
    throw new KeyInUseElsewhereError(tx.sender, tx.nonce, holder.hash, `waiting for ${depth} before signing again at the next free nonce`);
  }
  if (anchor && (await client.issuedAt(anchor.registry, anchor.root, head)) !== 0n) {
    const issuing = await client.issuingTransaction(anchor.registry, anchor.root, 0n, head);
    if (issuing) return settleWith(ctx, client, tx, issuing);
  }
  cached(ctx.db, "UPDATE chain_txs SET state = 'dropped' WHERE id = ?").run(tx.id);
  return { outcome: 'released', holder: holder.hash };
}

/**
 * The root was issued by `hash`: one of the transaction's variants becomes its current one, or a
 * transaction signed elsewhere (a copy of this data directory) is recorded and settles the job.
 */
async function settleWith(ctx: IssuingContext, client: ChainClient, tx: ChainTx, hash: Hex): Promise<TakenNonce> {
  const own = cached(ctx.db, 'SELECT raw, hash FROM chain_tx_variants WHERE tx_id = ? AND hash = ?').get(tx.id, hash) as { raw: Hex; hash: Hex } | undefined;
  if (own) {
    cached(ctx.db, 'UPDATE chain_txs SET raw = ?, hash = ? WHERE id = ?').run(own.raw, own.hash, tx.id);
    return { outcome: 'adopted' };
  }
  const [raw, found] = await Promise.all([client.signedBytesOf(hash), client.getTransaction(hash)]);
  if (!raw || !found) throw new NonceUnsettledError(`the root was issued by transaction ${hash}, which the node does not serve yet`);
  const txId = inTransaction(ctx.db, () => {
    cached(ctx.db, "UPDATE chain_txs SET state = 'dropped' WHERE id = ?").run(tx.id);
    const known = cached(ctx.db, 'SELECT id FROM chain_txs WHERE hash = ?').pluck().get(hash) as number | undefined;
    if (known !== undefined) return known;
    const id = cached(ctx.db, "INSERT INTO chain_txs (engine, sender, nonce, purpose, raw, hash, state, created_date) VALUES (?, ?, ?, ?, ?, ?, 'sent', ?)").run(
      tx.engine,
      tx.sender,
      found.nonce,
      tx.purpose,
      raw,
      hash,
      ctx.clock.now(),
    ).lastInsertRowid as number;
    storeVariant(ctx.db, ctx.clock, id, raw, hash, null);
    return id;
  });
  return { outcome: 'settled', txId: loadTx(ctx.db, txId).id };
}
