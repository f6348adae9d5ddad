/**
 * The IPC slice of the detail panel: one credential with its files,
 * its record (the tree of credentials linked to and from it), its state and certificate on
 * each engine; verify now, download the proof, unschedule, revoke.
 */
import { Type } from '@sinclair/typebox';
import type { Credential, JobStatus, VerificationResult, VerificationStatus } from '../wire-types.js';
import type { RecordState } from '../records.js';
import { UUID_PATTERN } from '../schemas/patterns.js';
import { argsOf } from './slice.js';

export interface CredentialOnEngine {
  engine: string;
  /** Its state there, as the records table shows it. */
  state: RecordState;
  /** The job that holds (or held) it on this engine. */
  job: { uid: string; status: JobStatus; scheduled_date: string | null; issued_date: string | null } | null;
  certificate: {
    uid: string;
    issued_date: string;
    revoked_date: string | null;
    last_verification: { status: VerificationStatus; timestamp: string } | null;
  } | null;
}

/** A node of a record's tree: a credential and those that were added to it (link to it). */
export interface RecordNode {
  uid: string;
  title: string;
  upload_date: string;
  children: RecordNode[];
}

export interface CredentialDetail {
  credential: Credential;
  engines: CredentialOnEngine[];
  /** The whole record, from its first credential(s) down; `uid` marks where this one is. */
  record: RecordNode[];
  /** How many credentials the record holds. */
  record_size: number;
}

/**
 * What "Open the original file" did: opened the file where it is on disk (desktop app), or
 * handed over the engine's stored copy for the browser to save (base64).
 */
export type OriginalFileResult = { kind: 'opened'; path: string } | { kind: 'download'; fileName: string; type: string | null; base64: string };

const Uid = Type.String({ pattern: UUID_PATTERN });
const Engine = Type.String({ minLength: 1, maxLength: 100 });
/** Either case: the file's hash is looked up in lowercase. */
const FileHash = Type.String({ pattern: '^[0-9a-fA-F]{64}$' });

/** The proof file or Verifiable Credential of a certificate: a name to save it under and its JSON text. */
type CertificateFile = { file_name: string; text: string };

export const DETAIL_IPC = {
  'detail:get': argsOf('detail:get', ['uid'], Uid).returns<CredentialDetail>(),
  /** Verifies one certificate now: the six steps. */
  'detail:verify': argsOf('detail:verify', ['uid'], Uid).returns<VerificationResult>(),
  /** The proof file of a certificate. */
  'detail:proof': argsOf('detail:proof', ['uid'], Uid).returns<CertificateFile>(),
  /** The certificate as a W3C Verifiable Credential for a wallet. */
  'detail:credential': argsOf('detail:credential', ['uid'], Uid).returns<CertificateFile>(),
  'detail:unschedule': argsOf('detail:unschedule', ['uid', 'engine'], Uid, Engine).returns<CredentialDetail | null>(),
  /** Revokes a credential's certificate on an engine. Cannot be undone. */
  'detail:revoke': argsOf('detail:revoke', ['uid', 'engine'], Uid, Engine).returns<CredentialDetail>(),
  /** Opens file `fileHash` of credential `uid` where it is on disk, or downloads the stored copy. */
  'detail:openOriginal': argsOf('detail:openOriginal', ['uid', 'fileHash'], Uid, FileHash)
    .map(([uid, fileHash]) => [uid, fileHash.toLowerCase()])
    .returns<OriginalFileResult>(),
};
