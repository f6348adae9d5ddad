/**
 * A Partner's Bitstring Status List as `serve` publishes it: a W3C BitstringStatusListCredential
 * (VC 2.0) whose bit at a certificate's position is set once the certificate is revoked on
 * chain, signed `eddsa-rdfc-2022` by the Partner's key (the key of its credentials, so a
 * verifier sees one issuer). Signed again only when the list changed since it was last signed.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { createCredential, createList } from '@digitalbazaar/vc-bitstring-status-list';
import { ServiceError } from '../../../common/errors.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { didKeyOf, verificationMethodOf } from './did-key.js';
import { staticDocumentLoader } from './document-loader.js';
import { partnerSigner } from './partner-signer.js';
import { STATUS_LIST_LENGTH, statusListRevision, statusListState } from './status-list-store.js';

/** A signed status list: its JSON text and the revision of the list it shows. */
export interface PublishedStatusList {
  text: string;
  revision: number;
}

// Per engine runtime, then `<partner>/<list>`: the last list signed. A request while it is
// being signed waits for the same signing.
const signed = new WeakMap<object, Map<string, Promise<PublishedStatusList>>>();

async function sign(scope: PartnerScope, list: number): Promise<PublishedStatusList> {
  const state = statusListState(scope, list);
  if (state === undefined) throw new ServiceError('not_found', 'No such status list');
  const publicKeyHex = cached(scope.db, 'SELECT signing_public_key FROM partner_keys WHERE partner_id = ?').pluck().get(scope.partner.id) as string | undefined;
  if (publicKeyHex === undefined) throw new ServiceError('not_found', 'No such status list');
  const bits = await createList({ length: STATUS_LIST_LENGTH });
  for (const index of state.revoked) bits.setStatus(index, true);
  const unsigned = await createCredential({ id: state.url, list: bits, statusPurpose: 'revocation' });
  const validFrom = new Date(scope.clock.now()).toISOString();
  const credential = { ...unsigned, issuer: didKeyOf(publicKeyHex), validFrom };
  const sign = await partnerSigner(scope, publicKeyHex);
  const signer = { id: verificationMethodOf(publicKeyHex), algorithm: 'Ed25519', sign: async ({ data }: { data: Uint8Array }) => sign(data) };
  const suite = new DataIntegrityProof({ signer, cryptosuite, date: validFrom });
  const signedCredential = await vc.issue({ credential, suite, documentLoader: staticDocumentLoader, now: validFrom });
  return { text: JSON.stringify(signedCredential), revision: state.revision };
}

/**
 * The Partner's status list `list`, signed: the one signed last while the list has not changed
 * since, else signed now. `not_found` when the Partner has no such list.
 */
export async function publishedStatusList(scope: PartnerScope, list: number): Promise<PublishedStatusList> {
  const revision = statusListRevision(scope, list);
  if (revision === undefined) throw new ServiceError('not_found', 'No such status list');
  let ofRuntime = signed.get(scope.issuing.ctx);
  if (!ofRuntime) signed.set(scope.issuing.ctx, (ofRuntime = new Map()));
  const key = `${scope.partner.id}/${list}`;
  const last = ofRuntime.get(key);
  if (last !== undefined) {
    const done = await last.catch(() => undefined);
    if (done !== undefined && done.revision === revision) return done;
    // Another request may have started the signing of this revision meanwhile.
    const now = ofRuntime.get(key);
    if (now !== last && now !== undefined) return now;
  }
  const signing = sign(scope, list);
  ofRuntime.set(key, signing);
  signing.catch(() => {
    if (ofRuntime.get(key) === signing) ofRuntime.delete(key);
  });
  return signing;
}
