/**
 * Limits the spec leaves unshown, fixed here once (documented in docs/api.md).
 */
export const LIMITS = {
  /** Default page size (the spec's). */
  defaultPerPage: 20,
  /** Longest title accepted. */
  titleMaxLength: 1_000,
  /** Largest metadata object, as compact JSON text. */
  metadataMaxBytes: 64 * 1024,
  /** Shortest and longest tag. */
  tagMinLength: 3,
  tagMaxLength: 64,
  /** Most tags on one credential or job. */
  maxTagsPerObject: 50,
  /** Most linked credentials or files on one credential. */
  maxLinks: 1_000,
  /** Most entries in one tag or schedule call. */
  maxBatch: 100_000,
  /** An uploaded file not used by a credential within this time is deleted (the spec's hour). */
  unusedFileRetentionMs: 60 * 60 * 1000,
} as const;
