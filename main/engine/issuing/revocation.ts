import { ServiceError } from '../../../common/errors.js';
import { ChainError, KeyInUseElsewhereError, NonceConflictError, ReplacementUnderpricedError, type Hex } from '../../chain/index.js';
import type { CertificateRow } from '../certificates.js';
import { cached } from '../list-query.js';
import { loadTx, settleTx, signAndStore } from './chain-txs.js';
import type { IssuingContext } from './issuing-context.js';
import { claim, type JobIssuer } from './job-issuer.js';
import { registryAddress } from './registry.js';
import { NonceUnsettledError, nodeSaid, resolveTakenNonce } from './taken-nonce.js';

/** How long a revocation call waits for its transaction to be mined before answering try_again_later. */
const REVOKE_WAIT_MS = 120_000;

/**
 * Revokes a certificate on chain: `revoke(leaf)` on the Partner's registry, signed and stored
 * before broadcast like every transaction, then waited for. The revocation date is the block
 * time. Calling again while a revocation is in flight waits for the same transaction.
 */
export async function revokeOnChain(
  ctx: IssuingContext,
  issuer: JobIssuer,
  partnerId: string,
  certificate: Pick<CertificateRow, 'id' | 'engine' | 'leaf' | 'revoke_tx'>,
): Promise<number> {
  const { client, chainKey, identity } = await issuer.prepare(partnerId, certificate.engine);
  let txId = certificate.revoke_tx;
  if (txId === null) {
    const registry = registryAddress(ctx, partnerId, certificate.engine);
    if (!registry) throw new ServiceError('internal_error', 'The certificate has no registry to revoke it in');
    const tx = await signAndStore(
      ctx.db,
      ctx.clock,
      client,
      { engine: certificate.engine, sender: identity.address, privateKey: chainKey, purpose: 'revoke', to: registry, data: client.encodeRevoke(`0x${certificate.leaf}` as Hex), maxFeeCap: issuer.feeCap(certificate.engine) },
      (id) => claim(cached(ctx.db, 'UPDATE certificates SET revoke_tx = ? WHERE id = ? AND revoke_tx IS NULL').run(id, certificate.id).changes, 'revocation'),
    );
    txId = tx.id;
  }
  const deadline = Date.now() + REVOKE_WAIT_MS;
  for (;;) {
    let tx;
    try {
      tx = await settleTx(ctx.db, client, loadTx(ctx.db, txId), () => ctx.chains.persist(certificate.engine), issuer.replacement(certificate.engine, chainKey));
    } catch (error) {
      if (!(error instanceof NonceConflictError || error instanceof ReplacementUnderpricedError)) throw error;
      // The nonce is used or held by a pending transaction: by one of ours, or by another holder of the key.
      try {
        await resolveTakenNonce(ctx, certificate.engine, client, loadTx(ctx.db, txId), nodeSaid(error));
      } catch (waiting) {
        if (waiting instanceof KeyInUseElsewhereError || waiting instanceof NonceUnsettledError) {
          throw new ServiceError('try_again_later', `The revocation waits: ${waiting instanceof ChainError ? waiting.shortMessage : waiting.message}`, { cause: waiting });
        }
        throw waiting;
      }
      tx = loadTx(ctx.db, txId);
    }
    if (tx.state === 'mined') {
      cached(ctx.db, 'UPDATE certificates SET revoked_date = ? WHERE id = ?').run(tx.mined_date, certificate.id);
      return tx.mined_date!;
    }
    if (tx.state === 'reverted' || tx.state === 'dropped') {
      cached(ctx.db, 'UPDATE certificates SET revoke_tx = NULL WHERE id = ?').run(certificate.id);
      throw new ChainError(`The revocation transaction ${tx.hash} was ${tx.state}`);
    }
    if (Date.now() > deadline) throw new ServiceError('try_again_later', `The revocation transaction ${tx.hash} is not mined yet; ask again later`);
    // One look per block of the chain (at least every 250 ms on a chain that mines on demand).
    await new Promise((resolve) => setTimeout(resolve, Math.max(250, issuer.pace.blockMs(certificate.engine))));
  }
}
