import { ChainError, type Address, type ChainClient, type Hex } from '../../chain/index.js';
import { cached } from '../list-query.js';
import { loadTx, sendTx, settleTx, signAndStore, type ReplacementPolicy } from './chain-txs.js';
import type { IssuingContext } from './issuing-context.js';
import type { PartnerIdentity } from './partner-keys.js';

/**
 * The Partner's registry contract on an engine, deployed on first issue by the Partner's own
 * account with its signing key bound in the constructor (so issuer authenticity is checkable
 * on chain). Returns its address, or null while the deployment is not mined yet.
 */
export async function ensureRegistry(
  ctx: IssuingContext,
  client: ChainClient,
  partnerId: string,
  engine: string,
  identity: PartnerIdentity,
  chainKey: Hex,
  policy?: ReplacementPolicy,
): Promise<Address | null> {
  const find = () =>
    cached(ctx.db, 'SELECT deploy_tx, address FROM registries WHERE partner_id = ? AND engine = ?').get(partnerId, engine) as
      | { deploy_tx: number; address: Address | null }
      | undefined;
  let row = find();
  if (row?.address) return row.address;
  if (!row) {
    const tx = await signAndStore(
      ctx.db,
      ctx.clock,
      client,
      { engine, sender: identity.address, privateKey: chainKey, purpose: 'deploy', data: client.encodeDeploy(`0x${identity.signingPublicKey}`), maxFeeCap: policy?.maxFeeCap },
      (txId) => {
        ctx.lease.fence();
        cached(ctx.db, 'INSERT INTO registries (partner_id, engine, deploy_tx) VALUES (?, ?, ?)').run(partnerId, engine, txId);
      },
    );
    try {
      await sendTx(ctx.db, client, tx);
    } catch (error) {
      // Refused by the chain: forget the deployment, so the next attempt signs a new one.
      if (loadTx(ctx.db, tx.id).state === 'dropped') cached(ctx.db, 'DELETE FROM registries WHERE partner_id = ? AND engine = ?').run(partnerId, engine);
      throw error;
    }
    row = find()!;
  }
  const tx = await settleTx(ctx.db, client, loadTx(ctx.db, row.deploy_tx), () => ctx.chains.persist(engine), policy);
  if (tx.state === 'mined' && tx.contract_address) {
    cached(ctx.db, 'UPDATE registries SET address = ? WHERE partner_id = ? AND engine = ?').run(tx.contract_address, partnerId, engine);
    return tx.contract_address;
  }
  if (tx.state === 'reverted' || tx.state === 'dropped') {
    // Forget it, so the next attempt deploys afresh.
    cached(ctx.db, 'DELETE FROM registries WHERE partner_id = ? AND engine = ?').run(partnerId, engine);
    throw new ChainError(`Deploying the registry on ${engine} failed (transaction ${tx.hash} ${tx.state})`);
  }
  return null;
}

/** The registry address of a Partner on an engine, if deployed. */
export function registryAddress(ctx: IssuingContext, partnerId: string, engine: string): Address | undefined {
  return (cached(ctx.db, 'SELECT address FROM registries WHERE partner_id = ? AND engine = ?').pluck().get(partnerId, engine) as Address | null) ?? undefined;
}
