/**
 * A certificate's `credentialStatus`: its position in one of its Partner's Bitstring Status
 * Lists, as a W3C BitstringStatusListEntry for revocation. Pure: no database, so the worker
 * threads that sign and check credentials can use it.
 */

/** A certificate's place in its Partner's status lists, as stored. */
export interface StatusPosition {
  /** The public URL the list was opened under (no trailing slash). */
  publicUrl: string;
  partnerId: string;
  list: number;
  index: number;
}

/** The `credentialStatus` of a credential: a W3C BitstringStatusListEntry for revocation. */
export interface BitstringStatusListEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: 'revocation';
  /** A decimal string, as the W3C spec has it. */
  statusListIndex: string;
  statusListCredential: string;
}

/** The URL a status list is published at: `<public URL>/status/<partner id>/<list>`. */
export function statusListUrl(publicUrl: string, partnerId: string, list: number): string {
  return `${publicUrl}/status/${partnerId}/${list}`;
}

/** The credentialStatus entry of a position; its id is the list's URL and `#` the index. */
export function statusEntryOf(position: StatusPosition): BitstringStatusListEntry {
  const url = statusListUrl(position.publicUrl, position.partnerId, position.list);
  return { id: `${url}#${position.index}`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: String(position.index), statusListCredential: url };
}

/**
 * The status entry a credential carries, when it is exactly one that Proofdesk makes (what
 * statusEntryOf gives for some position); undefined for anything else.
 */
export function ownStatusEntry(value: unknown): BitstringStatusListEntry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const index = typeof v.statusListIndex === 'string' && /^(0|[1-9]\d{0,8})$/.test(v.statusListIndex) ? Number(v.statusListIndex) : undefined;
  const match = typeof v.statusListCredential === 'string' ? /^(.+)\/status\/([^/]+)\/([1-9]\d{0,8})$/.exec(v.statusListCredential) : null;
  if (index === undefined || !match) return undefined;
  const entry = statusEntryOf({ publicUrl: match[1]!, partnerId: match[2]!, list: Number(match[3]), index });
  const same = Object.keys(v).length === Object.keys(entry).length && Object.entries(entry).every(([k, x]) => v[k] === x);
  return same ? entry : undefined;
}
