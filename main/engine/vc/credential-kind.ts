/**
 * What a parsed JSON file is, told without loading the Verifiable Credential libraries: the
 * offline checks of proof files (on worker threads) use it to hand credentials on.
 */

/** What a file that is neither says of itself, wherever it is read. */
export const NEITHER_PROOF_NOR_CREDENTIAL = 'This file is neither a Proofdesk proof file nor a Verifiable Credential';

/** Whether a parsed JSON file presents itself as a Verifiable Credential (a JSON-LD @context or the type). */
export function looksLikeCredential(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const types = Array.isArray(v.type) ? v.type : [v.type];
  return '@context' in v || types.includes('VerifiableCredential');
}

/** What a verify row shows of a credential: its certificate uid, title, issuer and engine, as far as it says. */
export function credentialSummary(value: unknown): { uid: string; title: string; issuer: string; engine: string } {
  const v = (value ?? {}) as { id?: unknown; name?: unknown; issuer?: unknown; proof?: unknown };
  const issuer = v.issuer as { id?: unknown; name?: unknown } | string | undefined;
  const proofs = (Array.isArray(v.proof) ? v.proof : [v.proof]) as ({ type?: unknown; engine?: unknown } | null | undefined)[];
  const anchor = proofs.find((p) => p?.type === 'ProofdeskAnchorProof');
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    uid: text(v.id).replace(/^urn:uuid:/, ''),
    title: text(v.name),
    issuer: typeof issuer === 'string' ? issuer : text(issuer?.name) || text(issuer?.id),
    engine: text(anchor?.engine),
  };
}

/** The SHA-256 digests (hex) a credential gives for its related resources (as digestSRI), to match original files. */
export function credentialFileHashes(value: unknown): string[] {
  const related = (value as { relatedResource?: unknown } | null)?.relatedResource;
  const list = Array.isArray(related) ? related : related === undefined ? [] : [related];
  return list.flatMap((r: { digestSRI?: unknown } | null) => {
    const sri = typeof r?.digestSRI === 'string' ? /^sha256-([A-Za-z0-9+/]{43}=)$/.exec(r.digestSRI) : null;
    return sri ? [Buffer.from(sri[1]!, 'base64').toString('hex')] : [];
  });
}
