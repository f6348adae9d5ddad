/** Which of some uids name the Partner's existing credentials, and their titles (for links in staging and CSV import). */
import { isServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { isUuid } from '../../../common/validate.js';
import { credentialTitlesOf, type PartnerScope } from '../../engine/index.js';

/**
 * The subset of `uids` that are existing credentials of the Partner: one query per 500 with
 * the embedded engine, one read each through a remote service.
 */
export async function existingCredentials(scope: PartnerScope | null, service: IssuingService, uids: string[]): Promise<Set<string>> {
  return new Set((await credentialTitles(scope, service, uids)).keys());
}

/**
 * The titles of those of `uids` that are existing credentials of the Partner, by lowercase uid
 * (text that is no uid is left out): one query per 500 with the embedded engine, one read each
 * through a remote service.
 */
export async function credentialTitles(scope: PartnerScope | null, service: IssuingService, uids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(uids.filter((u) => isUuid(u)).map((u) => u.toLowerCase()))];
  if (scope) return credentialTitlesOf(scope, wanted);
  const found = new Map<string, string>();
  for (const uid of wanted) {
    try {
      found.set(uid, (await service.getCredential(uid)).title);
    } catch (error) {
      if (!isServiceError(error) || error.id !== 'missing_credential') throw error;
    }
  }
  return found;
}
