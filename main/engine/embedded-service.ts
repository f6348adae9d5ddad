import { ServiceError } from '../../common/errors.js';
import type { BatchOutcome, IssuingService } from '../../common/issuing-service.js';
import type {
  CertificateQuery,
  CreateAndScheduleRequest,
  CreateCredentialBody,
  CredentialQuery,
  CredentialTagsBody,
  FileQuery,
  IssueNowBody,
  JobQuery,
  JobTagsBody,
  PageQuery,
  ScheduleBody,
  TagQuery,
  UploadFileRequest,
  UploadSource,
} from '../../common/requests.js';
import { isPlainObject, parseBooleanFlag } from '../../common/validate.js';
import type {
  Certificate,
  Credential,
  EngineInfo,
  FileRecord,
  Job,
  Page,
  RevokeResult,
  UnscheduleResult,
  VerificationResult,
} from '../../common/wire-types.js';
import type { ActivityEntry, ActivityQuery } from '../../common/activity.js';
import { verifiableCredentials } from './vc/load-vc.js';
import { listActivity, recordCredentialActivity, recordExports } from './activity.js';
import { createAndScheduleMany } from './create-and-schedule-many.js';
import { parseCreateCredentialBody, parseCredentialDetails } from './credential-input.js';
import { getCredential, insertCredential, insertCredentials, listCredentials, listJobCredentials, resolveReferences } from './credentials.js';
import { getFile, listFiles, recordUpload, stageUpload, storeThenRecord, uploadFile } from './files.js';
import { getJob, jobIdOf, listJobs, readJobs } from './jobs.js';
import { addToScheduledJob, scheduleCredentials, unscheduleCredential } from './scheduling.js';
import { inTransaction } from './database.js';
import type { PartnerScope } from './scope.js';
import { buildProofFile, certificateRow, certificateRowsByUid, certificateUidsOfJob, listCertificates, listJobCertificates, type ChainIdentities } from './certificates.js';
import type { ProofFile } from './proofs/proof-file.js';
import { issueJobNow } from './issue-now.js';
import { stage } from './stage-timing.js';
import { revokeCertificate, revokeCredential } from './revoking.js';
import { verifyCertificate, verifyCredential, verifyUploadedFile, verifyUploadedProof } from './verification.js';
import { CREDENTIAL_TAGS, JOB_TAGS, deleteCredentialTag, writeTags } from './tag-writer.js';

/** A proof file as downloaded: pretty-printed JSON and a newline. */
function proofText(proof: ProofFile): string {
  return `${JSON.stringify(proof, null, 2)}\n`;
}

/**
 * The embedded issuing engine: IssuingService in-process on SQLite, scoped to one Partner.
 * Each method validates its input completely before it writes, and writes in one
 * transaction, so a failed call changes nothing.
 */
export class EmbeddedService implements IssuingService {
  constructor(private readonly scope: PartnerScope) {}

  // Files

  async uploadFile(request: UploadFileRequest): Promise<FileRecord> {
    const allowDuplicate = parseBooleanFlag(request?.ignore_duplicated, 'ignore_duplicated');
    return uploadFile(this.scope, request?.file ?? undefined, allowDuplicate);
  }

  async listFiles(query?: FileQuery): Promise<Page<FileRecord>> {
    return listFiles(this.scope, query);
  }

  async getFile(fileHash: string): Promise<FileRecord> {
    return getFile(this.scope, fileHash);
  }

  // Credentials

  async createCredential(body: CreateCredentialBody): Promise<Credential> {
    const input = parseCreateCredentialBody(body);
    return inTransaction(this.scope.db, () => {
      const { id, credential } = insertCredential(this.scope, input, resolveReferences(this.scope, input));
      recordCredentialActivity(this.scope, 'created', [[id]]);
      return credential;
    });
  }

  /**
   * Creates many credentials in one transaction — the bulk path of the desktop app.
   * Every body is validated first; one bad body and none is created.
   */
  async createCredentials(bodies: CreateCredentialBody[]): Promise<Credential[]> {
    if (!Array.isArray(bodies)) throw new ServiceError('invalid_value', 'Expected an array of credentials');
    const inputs = stage('validate', () =>
      bodies.map((body, i) => {
        try {
          return parseCreateCredentialBody(body);
        } catch (error) {
          if (error instanceof ServiceError) throw new ServiceError(error.id, `Credential ${i + 1}: ${error.message}`);
          throw error;
        }
      }),
    );
    return stage('insert', () => insertCredentials(this.scope, inputs));
  }

  async createAndScheduleCredential(engine: string, request: CreateAndScheduleRequest): Promise<Credential> {
    if (!isPlainObject(request)) throw new ServiceError('no_json', 'Expected the credential_details form field');
    const target = this.scope.catalog.get(engine);
    const file = (request as CreateAndScheduleRequest).file ?? undefined;
    const details = parseCredentialDetails(request.credential_details, file !== undefined);
    const staged = file === undefined ? undefined : await stageUpload(this.scope, file);
    return storeThenRecord(this.scope, staged, () => {
      const uploaded = staged ? [recordUpload(this.scope, staged, details.ignoreDuplicate).id] : [];
      const { id, credential } = insertCredential(this.scope, details, resolveReferences(this.scope, details, uploaded));
      recordCredentialActivity(this.scope, 'created', [[id]]);
      addToScheduledJob(this.scope, target.id, [id], [credential.uid]);
      return credential;
    });
  }

  /** Many create-and-schedule requests in one write transaction, each all or nothing (create-and-schedule-many.ts). */
  async createAndScheduleCredentials(engine: string | null, requests: CreateAndScheduleRequest[]): Promise<BatchOutcome<Credential>[]> {
    return createAndScheduleMany(this.scope, engine, requests);
  }

  async listCredentials(query?: CredentialQuery): Promise<Page<Credential>> {
    return listCredentials(this.scope, query);
  }

  async getCredential(uid: string): Promise<Credential> {
    return getCredential(this.scope, uid);
  }

  async addCredentialTags(body: CredentialTagsBody): Promise<void> {
    writeTags(this.scope, CREDENTIAL_TAGS, body, 'add', 'missing_credential');
  }

  async replaceCredentialTags(body: CredentialTagsBody): Promise<void> {
    // The spec answers an unknown credential in PUT /credentials with missing_job.
    writeTags(this.scope, CREDENTIAL_TAGS, body, 'replace', 'missing_job');
  }

  async deleteCredentialTag(uid: string, tag: string): Promise<void> {
    deleteCredentialTag(this.scope, uid, tag);
  }

  async scheduleCredentials(body: ScheduleBody): Promise<Job> {
    return stage('schedule', () => readJobs(this.scope, [scheduleCredentials(this.scope, body)])[0]!);
  }

  async unscheduleCredential(uid: string, engine: string): Promise<UnscheduleResult> {
    return unscheduleCredential(this.scope, uid, engine);
  }

  async revokeCredential(uid: string, engine: string): Promise<RevokeResult> {
    return revokeCredential(this.scope, uid, engine);
  }

  // Jobs

  async listJobs(query?: JobQuery): Promise<Page<Job>> {
    return listJobs(this.scope, query);
  }

  async getJob(uid: string): Promise<Job> {
    return getJob(this.scope, uid);
  }

  async addJobTags(body: JobTagsBody): Promise<void> {
    writeTags(this.scope, JOB_TAGS, body, 'add', 'missing_job');
  }

  async replaceJobTags(body: JobTagsBody): Promise<void> {
    writeTags(this.scope, JOB_TAGS, body, 'replace', 'missing_job');
  }

  async listJobCredentials(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Credential>> {
    return listJobCredentials(this.scope, jobIdOf(this.scope, jobUid), query);
  }

  async listJobCertificates(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Certificate>> {
    return listJobCertificates(this.scope, jobIdOf(this.scope, jobUid), query);
  }

  async jobCertificateUids(jobUid: string): Promise<Map<string, string>> {
    return certificateUidsOfJob(this.scope, jobIdOf(this.scope, jobUid));
  }

  async issueJobNow(body: IssueNowBody): Promise<Job> {
    return readJobs(this.scope, [await issueJobNow(this.scope, body)])[0]!;
  }

  // Activity

  async listActivity(query?: ActivityQuery): Promise<Page<ActivityEntry>> {
    return listActivity(this.scope, query);
  }

  // Certificates

  async listCertificates(query?: CertificateQuery): Promise<Page<Certificate>> {
    return listCertificates(this.scope, query);
  }

  async downloadCertificate(uid: string): Promise<string> {
    const text = proofText(buildProofFile(this.scope, certificateRow(this.scope, uid)));
    recordExports(this.scope, 'proof', [uid]);
    return text;
  }

  async downloadCertificateVc(uid: string): Promise<string> {
    const proof = buildProofFile(this.scope, certificateRow(this.scope, uid));
    const text = await (await verifiableCredentials()).partnerCredentialText(this.scope, proof);
    recordExports(this.scope, 'vc', [uid]);
    return text;
  }

  /** The proof file of each certificate `uids` names, in order, or `missing_certificate`. */
  private proofFilesOf(uids: string[]): (ProofFile | ServiceError)[] {
    const rows = certificateRowsByUid(this.scope, uids);
    const identities: ChainIdentities = new Map();
    return uids.map((uid) => {
      const row = rows.get(uid.toLowerCase());
      return row ? buildProofFile(this.scope, row, identities) : new ServiceError('missing_certificate', `No issued certificate ${JSON.stringify(uid)}`);
    });
  }

  async downloadCertificates(uids: string[]): Promise<(string | ServiceError)[]> {
    const texts = this.proofFilesOf(uids).map((p) => (p instanceof ServiceError ? p : proofText(p)));
    recordExports(this.scope, 'proof', uids.filter((_, i) => typeof texts[i] === 'string'));
    return texts;
  }

  /**
   * Not an endpoint: the Verifiable Credentials of many certificates at once, one per uid in
   * order (the text downloadCertificateVc gives, or its error), signed on worker threads.
   */
  async downloadCertificateVcs(uids: string[]): Promise<(string | ServiceError)[]> {
    const proofs = this.proofFilesOf(uids);
    const found = proofs.filter((p): p is ProofFile => !(p instanceof ServiceError));
    const texts = await (await verifiableCredentials()).partnerCredentialTexts(this.scope, found);
    let next = 0;
    const answers = proofs.map((p) => (p instanceof ServiceError ? p : texts[next++]!));
    recordExports(this.scope, 'vc', uids.filter((_, i) => typeof answers[i] === 'string'));
    return answers;
  }

  async revokeCertificate(uid: string): Promise<RevokeResult> {
    return revokeCertificate(this.scope, uid);
  }

  // Verification

  async verifyCertificate(certificateUid: string): Promise<VerificationResult> {
    return verifyCertificate(this.scope, certificateUid);
  }

  async verifyCredential(credentialUid: string, query?: PageQuery): Promise<Page<VerificationResult>> {
    return verifyCredential(this.scope, credentialUid, query);
  }

  async verifyProofFile(proof: UploadSource | undefined): Promise<VerificationResult> {
    return verifyUploadedProof(this.scope, proof);
  }

  async verifyOriginalFile(file: UploadSource | undefined, query?: PageQuery): Promise<Page<VerificationResult>> {
    return verifyUploadedFile(this.scope, file, query);
  }

  // Engines

  async listEngines(): Promise<EngineInfo[]> {
    return this.scope.catalog.list();
  }

  async getEngine(engine: string): Promise<EngineInfo> {
    return this.scope.catalog.info(engine);
  }
}
