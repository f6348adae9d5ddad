/**
 * The Credential Issuing Service over HTTP: IssuingService against any base URL that speaks
 * the spec (the Live or Demo service, or Proofdesk's own `serve`), with the spec's client
 * credentials flow. Errors come back as the same ServiceError (id and status) the service
 * raised, so callers cannot tell it from the embedded engine.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { ActivityEntry, ActivityQuery } from '../../common/activity.js';
import { isPlainObject } from '../../common/validate.js';
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
import { HttpTransport, type Call, type Method } from './http-transport.js';
import { jsonBody, multipartBody, openUpload, type FormPart, type RequestBody } from './multipart.js';
import { TokenClient, type TokenClientOptions } from './token-client.js';
import { checkServiceUrl, segment, toQueryString } from './url.js';
import { readCapped } from './wire.js';

export interface RemoteServiceOptions extends Pick<TokenClientOptions, 'authUrl' | 'realm' | 'clientId' | 'clientSecret' | 'now'> {
  /** The service's base address, ending in its API prefix, e.g. `https://issuer.example/api`. */
  baseUrl: string;
  /** Wait at most this long for an answer's headers, and between two chunks of its body. Default 30 s. */
  timeoutMs?: number;
  /** Revocation and immediate issuing wait for the chain: their timeout. Default 150 s. */
  slowTimeoutMs?: number;
  /** Largest answer read, in bytes. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Attempts of a retryable call (GET, or answered `try_again_later`). Default 3. */
  tries?: number;
  /** First backoff step in ms (doubling, with jitter). Default 200. */
  retryBaseDelayMs?: number;
  /** The connection pool to use (default: one of its own, closed by `close()`). */
  dispatcher?: Dispatcher;
  /**
   * Plain http is refused for anything but loopback: the client secret and the tokens would
   * cross the network in clear. Set this only for a trusted network.
   */
  allowInsecureHttp?: boolean;
}

export class RemoteService implements IssuingService {
  private readonly http: HttpTransport;
  readonly tokens: TokenClient;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly maxResponseBytes: number;
  private readonly slowTimeoutMs: number;

  constructor(options: RemoteServiceOptions) {
    checkServiceUrl('baseUrl', options.baseUrl, options.allowInsecureHttp ?? false);
    checkServiceUrl('authUrl', options.authUrl, options.allowInsecureHttp ?? false);
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
    this.slowTimeoutMs = Math.max(options.slowTimeoutMs ?? 150_000, timeoutMs);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ connections: 16, keepAliveTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    this.tokens = new TokenClient({ ...options, dispatcher: this.dispatcher, timeoutMs, tries: options.tries ?? 3 });
    this.http = new HttpTransport({
      baseUrl: options.baseUrl,
      dispatcher: this.dispatcher,
      tokens: this.tokens,
      timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      tries: options.tries ?? 3,
      baseDelayMs: options.retryBaseDelayMs ?? 200,
      maxDelayMs: 10_000,
    });
  }

  /** Closes the connection pool (when it is this service's own). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** One call; `json` is sent as a JSON body, except a value that is not JSON at all (undefined): no body. */
  private call<T>(method: Method, path: string, options: { query?: object; body?: RequestBody; json?: unknown; slow?: boolean } = {}): Promise<T> {
    const body = options.json === undefined ? options.body : jsonBody(options.json);
    const call: Call = { method, path, query: toQueryString(options.query), body };
    if (options.slow) call.timeoutMs = this.slowTimeoutMs;
    return this.http.json<T>(call);
  }

  /** A multipart form of the fields that have a value, and the file when there is one. */
  private static async form(fields: [string, string | undefined][], source: unknown): Promise<RequestBody> {
    const parts: FormPart[] = [];
    for (const [name, value] of fields) if (value !== undefined) parts.push({ name, value });
    // Fields first: a streaming server can check them before it reads the file.
    if (source !== undefined && source !== null) parts.push({ name: 'file', file: await openUpload(source) });
    return multipartBody(parts);
  }

  // Files

  async uploadFile(request: UploadFileRequest): Promise<FileRecord> {
    const flag = request?.ignore_duplicated;
    const body = await RemoteService.form([['ignore_duplicated', flag === undefined || flag === null ? undefined : String(flag)]], request?.file);
    return this.call('POST', '/files', { body });
  }

  async listFiles(query?: FileQuery): Promise<Page<FileRecord>> {
    return this.call('GET', '/files', { query });
  }

  async getFile(fileHash: string): Promise<FileRecord> {
    return this.call('GET', `/files/${segment(fileHash, 'missing_file')}`);
  }

  // Credentials

  async createCredential(body: CreateCredentialBody): Promise<Credential> {
    return this.call('POST', '/credentials', { json: body });
  }

  async createAndScheduleCredential(engine: string, request: CreateAndScheduleRequest): Promise<Credential> {
    const path = `/credentials/schedule/${segment(engine, 'wrong_blockchain_engine')}`;
    // No request object at all is a request without its form: the service answers no_json.
    if (!isPlainObject(request)) return this.call('POST', path);
    const details = request.credential_details;
    // null is no details, as in-process.
    const text = details === undefined || details === null ? undefined : typeof details === 'string' ? details : JSON.stringify(details);
    return this.call('POST', path, { body: await RemoteService.form([['credential_details', text]], request.file) });
  }

  async listCredentials(query?: CredentialQuery): Promise<Page<Credential>> {
    return this.call('GET', '/credentials', { query });
  }

  async getCredential(uid: string): Promise<Credential> {
    return this.call('GET', `/credentials/${segment(uid, 'missing_credential')}`);
  }

  async addCredentialTags(body: CredentialTagsBody): Promise<void> {
    await this.call('PATCH', '/credentials', { json: body });
  }

  async replaceCredentialTags(body: CredentialTagsBody): Promise<void> {
    await this.call('PUT', '/credentials', { json: body });
  }

  async deleteCredentialTag(uid: string, tag: string): Promise<void> {
    await this.call('PATCH', `/credentials/${segment(uid, 'missing_credential')}/delete_tag`, { query: { tag } });
  }

  async scheduleCredentials(body: ScheduleBody): Promise<Job> {
    return this.call('POST', '/credentials/schedule', { json: body });
  }

  async unscheduleCredential(uid: string, engine: string): Promise<UnscheduleResult> {
    const e = segment(engine, 'wrong_blockchain_engine');
    return this.call('DELETE', `/credentials/${segment(uid, 'missing_credential')}/unschedule/${e}`);
  }

  async revokeCredential(uid: string, engine: string): Promise<RevokeResult> {
    const e = segment(engine, 'wrong_blockchain_engine');
    return this.call('POST', `/credentials/${segment(uid, 'missing_credential')}/revoke/${e}`, { slow: true });
  }

  // Jobs

  async listJobs(query?: JobQuery): Promise<Page<Job>> {
    return this.call('GET', '/jobs', { query });
  }

  async getJob(uid: string): Promise<Job> {
    return this.call('GET', `/jobs/${segment(uid, 'missing_job')}`);
  }

  async addJobTags(body: JobTagsBody): Promise<void> {
    await this.call('PATCH', '/jobs', { json: body });
  }

  async replaceJobTags(body: JobTagsBody): Promise<void> {
    await this.call('PUT', '/jobs', { json: body });
  }

  async listJobCredentials(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Credential>> {
    return this.call('GET', `/jobs/${segment(jobUid, 'missing_job')}/credentials`, { query });
  }

  async listJobCertificates(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Certificate>> {
    return this.call('GET', `/jobs/${segment(jobUid, 'missing_job')}/certificates`, { query });
  }

  async issueJobNow(body: IssueNowBody): Promise<Job> {
    return this.call('POST', '/jobs/immediate', { json: body, slow: true });
  }

  // Certificates

  async listActivity(query?: ActivityQuery): Promise<Page<ActivityEntry>> {
    return this.call('GET', '/activity', { query });
  }

  async listCertificates(query?: CertificateQuery): Promise<Page<Certificate>> {
    return this.call('GET', '/certificates', { query });
  }

  /** GET /certificates/<uid>/download: the proof file's text, byte for byte as the service sent it. */
  async downloadCertificate(uid: string): Promise<string> {
    return this.downloadText(uid, undefined, 'JSON proof file');
  }

  /** GET /certificates/<uid>/download?format=vc: the Verifiable Credential's text as the service sent it. */
  async downloadCertificateVc(uid: string): Promise<string> {
    return this.downloadText(uid, 'format=vc', 'JSON Verifiable Credential');
  }

  /** A download's text, refused unless it is JSON (`what` names what was expected). */
  private async downloadText(uid: string, query: string | undefined, what: string): Promise<string> {
    return this.http.send({ method: 'GET', path: RemoteService.downloadPath(uid), query }, async (answer) => {
      const text = await readCapped(answer.body, this.maxResponseBytes, answer.url);
      try {
        JSON.parse(text);
      } catch {
        throw new ServiceError('internal_error', `${answer.url} answered a download that is not a ${what}`);
      }
      return text;
    });
  }

  /**
   * Streams a certificate's proof file to `path`: written to a temporary file beside it and
   * renamed when complete, so `path` never holds half a proof. Returns the bytes written.
   */
  async downloadCertificateTo(uid: string, path: string): Promise<number> {
    return this.http.send({ method: 'GET', path: RemoteService.downloadPath(uid) }, async (answer) => {
      const type = String(answer.headers['content-type'] ?? '');
      if (!/json|text\/plain/i.test(type)) {
        await answer.body.dump();
        throw new ServiceError('internal_error', `${answer.url} answered a download of type ${JSON.stringify(type)}, not a JSON proof file`);
      }
      return writeAtomically(path, answer.body, this.maxResponseBytes, answer.url);
    });
  }

  private static downloadPath(uid: string): string {
    return `/certificates/${segment(uid, 'missing_certificate')}/download`;
  }

  async revokeCertificate(uid: string): Promise<RevokeResult> {
    return this.call('POST', `/certificates/${segment(uid, 'missing_certificate')}/revoke`, { slow: true });
  }

  // Verification

  async verifyCertificate(certificateUid: string): Promise<VerificationResult> {
    return this.call('GET', `/verify/${segment(certificateUid, 'missing_certificate')}`);
  }

  async verifyCredential(credentialUid: string, query?: PageQuery): Promise<Page<VerificationResult>> {
    return this.call('GET', `/verify/credential/${segment(credentialUid, 'missing_credential')}`, { query });
  }

  async verifyProofFile(proof: UploadSource | undefined): Promise<VerificationResult> {
    return this.call('POST', '/verify/upload/certificate', { body: await RemoteService.form([], proof) });
  }

  async verifyOriginalFile(file: UploadSource | undefined, query?: PageQuery): Promise<Page<VerificationResult>> {
    return this.call('POST', '/verify/upload/file', { query, body: await RemoteService.form([], file) });
  }

  // Engines

  async listEngines(): Promise<EngineInfo[]> {
    return this.call('GET', '/engines');
  }

  async getEngine(engine: string): Promise<EngineInfo> {
    return this.call('GET', `/engines/${segment(engine, 'wrong_blockchain_engine')}`);
  }
}

/** Writes chunks to a temporary file beside `path`, renamed into place when all arrived. */
async function writeAtomically(path: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, max: number, url: string): Promise<number> {
  const temp = join(dirname(path), `.${randomUUID()}.part`);
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) done(new ServiceError('internal_error', `The answer of ${url} is larger than ${max} bytes; refused`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(chunks, cap, createWriteStream(temp, { flags: 'wx' }));
    await rename(temp, path);
    return size;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
