import type { Engine } from '../engine/index.js';

/** Explicit limits of what a request may carry (documented in docs/api.md). */
export interface UploadLimits {
  /** Largest uploaded file, in bytes. */
  fileSize: number;
  /** Most text fields in one form. */
  fields: number;
  /** Most parts (fields and files) in one form. */
  parts: number;
  /** Largest text field (e.g. `credential_details`), in bytes. */
  fieldSize: number;
  /** Most header lines in one part. */
  headerPairs: number;
}

export interface ApiLimits {
  /** Largest JSON body, in bytes. */
  jsonBody: number;
  upload: UploadLimits;
}

export const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ApiLimits = {
  // A tag or schedule call may name up to 100,000 objects (common/limits.ts maxBatch).
  jsonBody: 16 * MiB,
  upload: {
    fileSize: 2 * 1024 * MiB,
    // Files have one file part; the forms have at most one text field each, and a little room.
    fields: 4,
    parts: 5,
    // credential_details: 64 KiB of metadata plus up to 1,000 linked uids and 50 tags.
    fieldSize: 1 * MiB,
    headerPairs: 50,
  },
};

/** What every part of the server shares. */
export interface ApiContext {
  readonly engine: Engine;
  readonly environment: 'demo' | 'live';
  /** `http://HOST:PORT`: where this server is reached. Set once it listens. */
  origin: string;
  /** HTTP date this server started (`meta.last_update`). */
  readonly lastUpdate: string;
  /** `meta.version`: the package version. */
  readonly version: string;
  readonly limits: ApiLimits;
  /** Where uploads that cannot stream straight into the store wait (removed on close). */
  readonly spoolDir: string;
  /** One line for the operator (stderr by default). Never given secrets or tokens. */
  readonly log: (line: string) => void;
}
