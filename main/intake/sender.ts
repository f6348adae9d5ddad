/**
 * Sending create-and-schedule requests for intake. On a service with the batched call (the
 * embedded engine) requests go many per write transaction: a list at once
 * (`createAndScheduleMany`), and single requests made in the same turn of the event loop
 * (`createAndSchedule`: the watched folder's and the REST server's concurrent files) are
 * gathered into one batch. On a service without it (a RemoteService) they go as concurrent
 * single requests.
 */
import type { IssuingService } from '../../common/issuing-service.js';
import type { CreateAndScheduleRequest, CredentialDetails } from '../../common/requests.js';
import type { Credential } from '../../common/wire-types.js';
import pMap from 'p-map';

/** One request's outcome: its credential, or why it was not created (a ServiceError, or a transport failure whose outcome is unknown). */
export type IntakeOutcome = { credential: Credential; error?: undefined } | { error: unknown; credential?: undefined };

export interface IntakeSenderOptions {
  /** Requests per batch (one write transaction) at most. */
  maxBatch?: number;
  /** Single requests under way at once when the service has no batched call. */
  concurrency?: number;
}

/**
 * Requests per batch (one engine write transaction, one sync pass of its files) by default:
 * enough that the staged files are synced with one syncfs (SYNCFS_FROM) and the commit costs
 * little per file, few enough to keep a batch's bytes in memory.
 */
export const INTAKE_BATCH = 500;

interface Waiting {
  request: CreateAndScheduleRequest;
  resolve: (credential: Credential) => void;
  reject: (error: unknown) => void;
}

export class IntakeSender {
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly queues = new Map<string, Waiting[]>();
  private flushing = false;

  constructor(
    private readonly service: IssuingService,
    options: IntakeSenderOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? INTAKE_BATCH;
    this.concurrency = options.concurrency ?? 8;
  }

  /** Whether requests go many per transaction (the embedded engine). */
  get batched(): boolean {
    return typeof this.service.createAndScheduleCredentials === 'function';
  }

  /** Requests to have under way at once for the best throughput on this service. */
  get window(): number {
    return this.batched ? this.maxBatch : this.concurrency;
  }

  /**
   * Creates and schedules many credentials; one outcome per request, in order. Never rejects
   * for one request's failure; a batch that fails as a whole gives every request of it that error.
   * `contentKeys` (e.g. each file's SHA-256) keeps requests of the same content in order when
   * they go as concurrent single requests.
   */
  async createAndScheduleMany(engine: string | null, requests: CreateAndScheduleRequest[], contentKeys?: (string | undefined)[]): Promise<IntakeOutcome[]> {
    const batch = this.service.createAndScheduleCredentials?.bind(this.service);
    const outcomes: IntakeOutcome[] = new Array(requests.length);
    if (batch) {
      for (let at = 0; at < requests.length; at += this.maxBatch) {
        const part = requests.slice(at, at + this.maxBatch);
        try {
          (await batch(engine, part)).forEach((o, i) => (outcomes[at + i] = o));
        } catch (error) {
          part.forEach((_, i) => (outcomes[at + i] = { error }));
        }
      }
      return outcomes;
    }
    // Concurrent single requests; a request with the same content as an earlier one waits for
    // it (the next round), so the first of two identical files is the one created, as in a batch.
    for (const round of roundsByContent(requests.length, contentKeys)) {
      await pMap(
        round,
        async (i) => {
          try {
            outcomes[i] = { credential: await this.sendOne(engine, requests[i]!) };
          } catch (error) {
            outcomes[i] = { error };
          }
        },
        { concurrency: this.concurrency },
      );
    }
    return outcomes;
  }

  /** One request as single calls: create-and-schedule, or (no engine) upload + create. */
  private async sendOne(engine: string | null, request: CreateAndScheduleRequest): Promise<Credential> {
    if (engine !== null) return this.service.createAndScheduleCredential(engine, request);
    const details = (typeof request.credential_details === 'string' ? JSON.parse(request.credential_details) : request.credential_details) as CredentialDetails;
    const { ignore_duplicate: ignoreDuplicate, ...body } = details;
    const files = request.file ? [(await this.service.uploadFile({ file: request.file, ignore_duplicated: ignoreDuplicate === true || ignoreDuplicate === 'true' })).file_hash] : [];
    // Everything createCredential checks was checked by the caller, so the upload is not left
    // alone (and if it were, the spec's one-hour rule removes an unused upload).
    return this.service.createCredential({ ...body, files });
  }

  /**
   * One request, as `createAndScheduleCredential` (rejects with its error); on the embedded
   * engine it joins the other requests made in the same turn of the event loop (or while the
   * previous batch was being written), unless its file is a stream.
   */
  createAndSchedule(engine: string, request: CreateAndScheduleRequest): Promise<Credential> {
    // A file still arriving as a stream (an HTTP upload, a large file) goes alone: its batch
    // would wait for its last byte before anything of it was recorded.
    const data = request?.file && 'data' in request.file ? request.file.data : undefined;
    if (!this.batched || (data !== undefined && !(data instanceof Uint8Array))) return this.service.createAndScheduleCredential(engine, request);
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(engine);
      if (queue) queue.push({ request, resolve, reject });
      else this.queues.set(engine, [{ request, resolve, reject }]);
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      for (;;) {
        const entry = [...this.queues].find(([, q]) => q.length > 0);
        if (!entry) return;
        const [engine, queue] = entry;
        const taken = queue.splice(0, this.maxBatch);
        const outcomes = await this.createAndScheduleMany(
          engine,
          taken.map((w) => w.request),
        );
        taken.forEach((w, i) => {
          const o = outcomes[i]!;
          if (o.credential) w.resolve(o.credential);
          else w.reject(o.error);
        });
      }
    } finally {
      this.flushing = false;
      if ([...this.queues.values()].some((q) => q.length > 0)) this.scheduleFlush();
    }
  }
}

const senders = new WeakMap<IssuingService, IntakeSender>();

/** The one sender of a service (so concurrent callers of one service share its batches). */
export function intakeSenderFor(service: IssuingService): IntakeSender {
  let sender = senders.get(service);
  if (!sender) senders.set(service, (sender = new IntakeSender(service)));
  return sender;
}

/** Request indices in rounds: the n-th request of one content key goes in round n. */
function roundsByContent(count: number, keys: (string | undefined)[] | undefined): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const key = keys?.[i];
    const n = key === undefined ? 0 : (seen.get(key) ?? 0);
    if (key !== undefined) seen.set(key, n + 1);
    (rounds[n] ??= []).push(i);
  }
  return rounds;
}
