/**
 * A job's uid shortened for a table cell: its last 8 hex digits. Uids are UUIDv7, whose first
 * digits are the creation time, so jobs opened within a minute would all start alike.
 */
export function shortUid(uid: string): string {
  return uid.replace(/-/g, '').slice(-8);
}
