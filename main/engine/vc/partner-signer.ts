import { createPublicKey, type KeyObject } from 'node:crypto';
import { ServiceError } from '../../../common/errors.js';
import { loadSigningKey } from '../issuing/partner-keys.js';
import type { ProofFile } from '../proofs/proof-file.js';
import { settledMemo } from '../proofs/settled-memo.js';
import type { PartnerScope } from '../scope.js';
import { credentialText, keySigner, signedCredentialOf, type Ed25519Sign } from './sign-credential.js';
import { statusEntryOf, type BitstringStatusListEntry } from './status-entry.js';
import { statusPositions } from './status-list-store.js';
import { vcPool } from './vc-pool.js';

// The key is read from the secret store (the keychain: slow, and it may ask the user) once per
// Partner and runtime; it stays in this process.
const keys = new WeakMap<object, ReturnType<typeof settledMemo>>();

/**
 * The Partner's certificate-signing key, which must be `publicKeyHex` (the key of the proofs
 * being turned into credentials): for this process's signers and its worker threads only.
 */
export async function partnerSigningKey(scope: PartnerScope, publicKeyHex: string): Promise<KeyObject> {
  const ctx = scope.issuing.ctx;
  let ofRuntime = keys.get(ctx);
  if (!ofRuntime) keys.set(ctx, (ofRuntime = settledMemo()));
  const { key, publicKeyHex: own } = await ofRuntime(scope.partner.id, () =>
    loadSigningKey(ctx.secrets, scope.partner.id).then(({ key }) => ({
      key,
      publicKeyHex: createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex'),
    })),
  );
  if (own !== publicKeyHex.toLowerCase()) {
    throw new ServiceError('internal_error', "This certificate was signed with another key than the Partner's signing key in the secret store, so it cannot be signed as a Verifiable Credential here");
  }
  return key;
}

/** Signs with the Partner's certificate-signing key, which must be `publicKeyHex`. */
export async function partnerSigner(scope: PartnerScope, publicKeyHex: string): Promise<Ed25519Sign> {
  return keySigner(await partnerSigningKey(scope, publicKeyHex));
}

/**
 * The status entries of the Partner's proofs, in order: each certificate's position in its
 * status list (given now when the data directory has a public URL and it has none yet), or
 * undefined when it has none.
 */
function statusEntries(scope: PartnerScope, proofs: ProofFile[]): (BitstringStatusListEntry | undefined)[] {
  const positions = statusPositions(scope, proofs.map((p) => p.certificate.uid));
  return proofs.map((p) => {
    const position = positions.get(p.certificate.uid.toLowerCase());
    return position && statusEntryOf(position);
  });
}

/** The Verifiable Credential text of one proof of the Partner, signed on this thread. */
export async function partnerCredentialText(scope: PartnerScope, proof: ProofFile): Promise<string> {
  const sign = await partnerSigner(scope, proof.issuer.public_key);
  return credentialText(await signedCredentialOf(proof, sign, statusEntries(scope, [proof])[0]));
}

/**
 * The Verifiable Credential texts of many proofs of the Partner, in order, signed together on
 * worker threads (vc-pool.ts); a proof signed with another key than the Partner's gets that error.
 */
export async function partnerCredentialTexts(scope: PartnerScope, proofs: ProofFile[]): Promise<(string | ServiceError)[]> {
  const texts: (string | ServiceError)[] = new Array(proofs.length);
  const statuses = statusEntries(scope, proofs);
  for (const publicKey of new Set(proofs.map((p) => p.issuer.public_key))) {
    const at = proofs.flatMap((p, i) => (p.issuer.public_key === publicKey ? [i] : []));
    let key: KeyObject;
    try {
      key = await partnerSigningKey(scope, publicKey);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      for (const i of at) texts[i] = error;
      continue;
    }
    const signed = await vcPool().credentialTexts(
      at.map((i) => proofs[i]!),
      key,
      at.map((i) => statuses[i]),
    );
    at.forEach((i, n) => (texts[i] = signed[n]!));
  }
  return texts;
}
