import { ServiceError } from '../../common/errors.js';
import { ChainError } from '../chain/index.js';
import type { RevokeResult } from '../../common/wire-types.js';
import { formatDate } from '../../common/validate.js';
import { certificateRow, type CertificateRow } from './certificates.js';
import { revokeOnChain } from './issuing/revocation.js';
import { cached } from './list-query.js';
import { credentialIdOf } from './scheduling.js';
import type { PartnerScope } from './scope.js';

async function revoke(scope: PartnerScope, row: CertificateRow): Promise<RevokeResult> {
  // An engine this node does not have (another node's, or `local` whose chain is in another data
  // directory): refused before anything is written.
  scope.catalog.get(row.engine);
  if (row.job_status !== 'finished') {
    throw new ServiceError('unconfirmed_certificate_transaction', 'The issuing transaction of this certificate is not confirmed yet');
  }
  if (row.revoked_date !== null) throw new ServiceError('certificate_already_revoked', `The certificate was revoked on ${formatDate(row.revoked_date)}`);
  // The activity log names who asked once the chain has the revocation (migration 7's trigger).
  if (row.revoke_tx === null) cached(scope.db, 'UPDATE certificates SET revoked_by = ? WHERE id = ?').run(scope.actor, row.id);
  try {
    return { revoked_date: formatDate(await revokeOnChain(scope.issuing.ctx, scope.issuing.issuer, scope.partner.id, row)) };
  } catch (error) {
    // The chain's own message may name its RPC URL (API keys live there): keep it out of answers.
    if (error instanceof ChainError) throw new ServiceError('try_again_later', `Revoking on ${row.engine} failed for now (${error.name})`, { cause: error });
    throw error;
  }
}

/** POST /certificates/<uid>/revoke */
export function revokeCertificate(scope: PartnerScope, uid: string): Promise<RevokeResult> {
  return revoke(scope, certificateRow(scope, uid));
}

/** POST /credentials/<uid>/revoke/<engine> */
export function revokeCredential(scope: PartnerScope, uid: string, engineId: string): Promise<RevokeResult> {
  const credentialId = credentialIdOf(scope, uid);
  const engine = scope.catalog.get(engineId);
  const certificateUid = cached(
    scope.db,
    "SELECT c.uid FROM certificates c JOIN jobs j ON j.id = c.job_id WHERE c.credential_id = ? AND c.engine = ? AND j.status IN ('unconfirmed', 'finished')",
  )
    .pluck()
    .get(credentialId, engine.id) as string | undefined;
  if (certificateUid === undefined) throw new ServiceError('missing_certificate_by_credential', `Credential ${uid} is not issued on ${engine.id}`);
  return revoke(scope, certificateRow(scope, certificateUid));
}
