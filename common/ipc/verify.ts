/**
 * The IPC slice of the Verify view: proof files (and their originals) dropped
 * on the window are verified in main as a task; the renderer reads the run's rows a window at a
 * time as progress events arrive, opens one row's six steps, and downloads the run's audit
 * report. Only paths cross IPC (as for staging), never file bytes.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ServiceError } from '../errors.js';
import type { TaskInfo } from '../tasks.js';
import type { StepStatus, VerificationResult, VerificationStatus, VerificationStepKey } from '../wire-types.js';
import { OneOf } from '../schemas/primitives.js';
import { argsOf } from './slice.js';

/** One proof's outcome; `error` also for a file that is not a proof at all. */
export interface VerifyRow {
  /** Position in the run (stable: the table addresses rows by it). */
  index: number;
  /** The proof file's path relative to what was dropped. */
  name: string;
  /** The original matched to it (relative name), or null when none was dropped with it. */
  original: string | null;
  /** How the original was matched: by its name (NAME ↔ NAME.proof.json) or by its hash. */
  matched_by: 'name' | 'hash' | null;
  certificate_uid: string;
  title: string;
  issuer: string;
  engine: string;
  result: VerificationStatus;
  /** The first step that did not pass (failed, error or pending); empty when ok. */
  step: string;
  /** Its plain-language reason; for an ok row of another issuer's credential, why the Proofdesk-only steps do not apply (else empty when ok). */
  reason: string;
  /** The reason as a code the window words in its language; null when it is the verifier's own sentence (then `reason` is shown). */
  reason_code: StepReasonCode | null;
}

/** The reasons main writes for a step, by what happened (the window's catalogue words them: `verify.reason`). */
export const STEP_REASONS = ['passed', 'notChecked', 'unconfirmed', 'waiting', 'certificate', 'blockchain', 'issuer', 'file', 'expired', 'revoked', 'other'] as const;

/** A step's reason as data: which one, and its values (a count of confirmations, an ISO 8601 date, a status). */
export interface StepReasonCode {
  id: (typeof STEP_REASONS)[number];
  confirmations?: number;
  date?: string;
  status?: string;
}

/** An original dropped without any proof: "Which credential is this?" */
export interface UnmatchedOriginal {
  name: string;
  file_hash: string;
}

export interface VerifyRunSummary {
  run_id: string;
  task_id: string;
  /** Proofs found in the drop (rows of the run). */
  total: number;
  /** Proofs verified so far. */
  done: number;
  counts: Record<VerificationStatus, number>;
  unmatched_originals: UnmatchedOriginal[];
  /** Files of the drop that were neither a proof nor an original (with the reason). */
  skipped: { name: string; reason: string }[];
  /** The chain endpoint asked per engine ("not asked" when no proof needed it). */
  endpoints: { engine: string; endpoint: string }[];
  started_at: string;
  finished_at: string | null;
  state: 'running' | 'done' | 'cancelled' | 'failed';
}

const VerifyRowsQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
  limit: Type.Integer({ minimum: 0, maximum: 1000 }),
  /** Only rows whose result is not ok (the failures filter). */
  failures_only: Type.Boolean(),
});
export type VerifyRowsQuery = Static<typeof VerifyRowsQuerySchema>;

export interface VerifyRowsPage {
  /** Rows matching the filter so far. */
  total: number;
  rows: VerifyRow[];
}

/** What the credential says, from the proof itself (nothing of the Partner's own data). */
export interface VerifiedCredential {
  certificate_uid: string;
  credential_uid: string;
  title: string;
  metadata: Record<string, unknown>;
  issuer_name: string;
  issuer_address: string;
  issuer_public_key: string;
  upload_date: string;
  issued_date: string;
  expiry_date: string | null;
  files: { file_hash: string; file_type: string }[];
  engine: string;
  chain_id: number;
  transaction_id: string;
  /** The explorer link of the transaction, when the engine has one. */
  transaction_url: string | null;
}

export interface VerifyRowDetail {
  row: VerifyRow;
  /** The six steps; null when the file is not a proof (row.reason says why). */
  result: VerificationResult | null;
  /** The six steps in the spec's order, each with a plain-language reason; empty for a non-proof. */
  steps: { key: VerificationStepKey; name: string; status: StepStatus; reason: string; reason_code: StepReasonCode | null }[];
  credential: VerifiedCredential | null;
}

/** The user's own RPC endpoint for one engine (kept in the data directory). */
export interface VerifyEndpoint {
  engine: string;
  rpc_url: string;
}

export interface VerifyReport {
  file_name: string;
  media_type: string;
  content: string;
}

/** A certificate holding a dropped original (the spec's verify by file). */
export interface OriginalMatch {
  certificate_uid: string;
  title: string;
  result: VerificationStatus;
}


const MAX_PATHS = 100_000;
const MAX_PATH = 4096;
/** An engine id such as `local` or `sepolia`. */
const ENGINE_ID = '^[a-z0-9][a-z0-9_-]{0,63}$';

/** An http(s) URL (the endpoint is the user's: any host they choose). */
export function checkRpcUrl(value: string): string {
  // common/ has no URL class (env-free): a scheme, a host, then anything but spaces.
  if (!/^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i.test(value)) {
    throw new ServiceError('invalid_value', `${JSON.stringify(value)} is not an endpoint: give it as http://host:port or https://host/path`);
  }
  return value;
}

const RunId = Type.String({ minLength: 1, maxLength: 200 });
const Path = Type.String({ minLength: 1, maxLength: MAX_PATH });

export const VERIFY_IPC = {
  /** Collects the dropped paths (files, folders), matches originals to proofs and verifies them as a task. */
  'verify:start': argsOf('verify:start', ['paths'], Type.Array(Path, { minItems: 1, maxItems: MAX_PATHS })).returns<{ summary: VerifyRunSummary; task: TaskInfo }>(),
  'verify:summary': argsOf('verify:summary', ['runId'], RunId).returns<VerifyRunSummary>(),
  'verify:rows': argsOf('verify:rows', ['runId', 'query'], RunId, VerifyRowsQuerySchema)
    .map(([runId, { offset, limit, failures_only }]) => [runId, { offset, limit, failures_only }])
    .returns<VerifyRowsPage>(),
  'verify:detail': argsOf('verify:detail', ['runId', 'index'], RunId, Type.Integer({ minimum: 0, maximum: 10_000_000 })).returns<VerifyRowDetail>(),
  'verify:report': argsOf('verify:report', ['runId', 'format'], RunId, OneOf(['csv', 'html'] as const)).returns<VerifyReport>(),
  'verify:endpoints': argsOf('verify:endpoints', []).returns<VerifyEndpoint[]>(),
  /**
   * Files are being dragged over the window: main starts its proof-checking workers now, so a
   * drop finds them running (they take a few hundred milliseconds to start). Only a hint.
   */
  'verify:warm': argsOf('verify:warm', []).returns<null>(),
  /** Sets (or, with null, removes) the user's endpoint for an engine; answers the new list. */
  'verify:setEndpoint': argsOf('verify:setEndpoint', ['engine', 'rpcUrl'], Type.String({ pattern: ENGINE_ID }), Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()]))
    .map(([engine, url]) => [engine, url === null ? null : checkRpcUrl(url)])
    .returns<VerifyEndpoint[]>(),
  /**
   * Whether verifying may fetch what a Verifiable Credential names on the network (the status
   * list of its credentialStatus): off at each start of the app, until the user turns it on.
   */
  'verify:network': argsOf('verify:network', []).returns<boolean>(),
  /** Turns fetching on or off for the next runs; answers the new setting. */
  'verify:setNetwork': argsOf('verify:setNetwork', ['on'], Type.Boolean()).returns<boolean>(),
  /** "Which credential is this?": the certificates holding a dropped original without a proof. */
  'verify:whichCredential': argsOf('verify:whichCredential', ['runId', 'name'], RunId, Path).returns<OriginalMatch[]>(),
};
