/** What the app's Settings view reads about the Partner's keys from the engine. */
import type { PartnerScope } from './scope.js';

/** The Partner's signing public key (hex), or null before its keys are made. */
export function signingPublicKey(scope: PartnerScope): string | null {
  const row = scope.db.prepare('SELECT signing_public_key FROM partner_keys WHERE partner_id = ?').get(scope.partner.id) as { signing_public_key: string } | undefined;
  return row?.signing_public_key ?? null;
}
