/** Which of some uids name the Partner's existing credentials (for links in staging and CSV import). */
import { isServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { isUuid } from '../../../common/validate.js';
import { existingCredentialUids, type PartnerScope } from '../../engine/index.js';

/**
 * The subset of `uids` that are existing credentials of the Partner: one query per 500 with
 * the embedded engine, one read each through a remote service.
 */
export async function existingCredentials(scope: PartnerScope | null, service: IssuingService, uids: string[]): Promise<Set<string>> {
  const wanted = [...new Set(uids.filter((u) => isUuid(u)).map((u) => u.toLowerCase()))];
  const found = new Set<string>();
  if (scope) {
    return existingCredentialUids(scope, wanted);
  }
  for (const uid of wanted) {
    try {
      await service.getCredential(uid);
      found.add(uid);
    } catch (error) {
      if (!isServiceError(error) || error.id !== 'missing_credential') throw error;
    }
  }
  return found;
}
