/**
 * The undo of bulk tag edits: what each edit changed, kept in memory under a random token for a
 * while, so the toast's Undo can put every credential's tags back exactly. In memory on purpose:
 * an undo belongs to the session that made the edit, and the tokens are the only handle on it.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../common/errors.js';
import type { TagEditChange } from '../engine/index.js';

/** How long an edit can be undone; the toast offering it stays far shorter than this. */
const KEEP_MS = 60 * 60 * 1000;
/** Edits remembered at most (per process); older ones drop first. */
const KEEP_EDITS = 20;

interface Remembered {
  partnerId: string;
  changes: TagEditChange[];
  expiry: NodeJS.Timeout;
}

const edits = new Map<string, Remembered>();

/** Keeps an edit's changes for undo; answers its token, or null when it changed nothing. */
export function rememberTagEdit(partnerId: string, changes: TagEditChange[]): string | null {
  if (changes.length === 0) return null;
  const token = randomUUID();
  const expiry = setTimeout(() => edits.delete(token), KEEP_MS);
  expiry.unref();
  edits.set(token, { partnerId, changes, expiry });
  for (const [oldest, edit] of edits) {
    if (edits.size <= KEEP_EDITS) break;
    clearTimeout(edit.expiry);
    edits.delete(oldest);
  }
  return token;
}

/**
 * Takes an edit's changes to undo them (each edit is undone once), only for the Partner that
 * made it; `invalid_value` for an unknown, used or expired token.
 */
export function takeTagEdit(partnerId: string, token: string): TagEditChange[] {
  const edit = edits.get(token);
  if (!edit || edit.partnerId !== partnerId) throw new ServiceError('invalid_value', 'This tag change can no longer be undone (it was undone already, or it is too old); change the tags again instead.');
  clearTimeout(edit.expiry);
  edits.delete(token);
  return edit.changes;
}
