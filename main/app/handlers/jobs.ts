/**
 * Handlers of the Jobs view's slice (common/ipc/jobs.ts). Listings and job changes go through
 * IssuingService (they work on a remote service too); the anchoring transaction and the next
 * issuing date read the embedded engine when there is one.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { DEFAULT_JOB_SORT, type JobDetail, type JOBS_IPC, type NextIssuing } from '../../../common/ipc/jobs.js';
import type { ProofExportRequest, ProofExportResult } from '../../../common/records.js';
import type { TaskContext, TaskLabel } from '../../../common/tasks.js';
import { JOB_STATUSES, type Certificate, type JobStatus } from '../../../common/wire-types.js';
import { exportProofs as exportProofsFromEngine } from '../../workspace/proof-export.js';
import { jobSummaries, jobTransactionHash, nextScheduledDate } from '../../engine/index.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';
import { proofBaseName } from './detail.js';
import { allPages, pageWindow } from '../../../common/all-pages.js';

const DETAIL_PAGE = 100;
/** Certificates read per page while exporting. */
const EXPORT_PAGE = 200;

export function createJobsHandlers(ctx: AppContext): HandlersOf<typeof JOBS_IPC> {
  return {
    'jobs:list': async ({ status, sort = DEFAULT_JOB_SORT, offset, limit }) => {
      const { service } = ctx.require();
      // The spec pages by page number: read the pages the window spans, in the table's sort.
      const query = { ...(status ? { status } : {}), sort_by: sort.by, order: sort.order, per_page: limit };
      const [{ items: rows, total }, counts] = await Promise.all([pageWindow(offset, limit, (page) => service.listJobs({ ...query, page })), jobCounts(service)]);
      // A remote service's summaries cost a request each: those not kept are asked by `jobs:summaries` for the rows on screen.
      const remote = ctx.remoteJobSummaries();
      const summaries = remote ? remote.known(rows) : ctx.engine ? jobSummaries(ctx.scope(), rows.map((j) => j.uid)) : {};
      return { offset, total, rows, counts, summaries };
    },
    'jobs:summaries': async (uids) => {
      ctx.require();
      const remote = ctx.remoteJobSummaries();
      return remote ? remote.of(uids) : ctx.engine ? jobSummaries(ctx.scope(), uids) : {};
    },
    'jobs:get': async (uid) => {
      const { service } = ctx.require();
      const job = await service.getJob(uid);
      const [credentials, certificates, engines] = await Promise.all([
        service.listJobCredentials(uid, { per_page: DETAIL_PAGE }),
        service.listJobCertificates(uid, { per_page: DETAIL_PAGE }),
        service.listEngines(),
      ]);
      return {
        job,
        credentials: { total: credentials.total_items, items: credentials.items },
        certificates: { total: certificates.total_items, items: certificates.items },
        transaction: transactionOf(ctx, uid, job.chain),
        demo: engines.find((e) => e.id === job.chain)?.environment === 'demo',
      };
    },
    'jobs:addTags': async (uid, tags) => {
      const { service } = ctx.require();
      await service.addJobTags({ jobs: [{ job_uid: uid, tags }] });
      return service.getJob(uid);
    },
    'jobs:replaceTags': async (uid, tags) => {
      const { service } = ctx.require();
      await service.replaceJobTags({ jobs: [{ job_uid: uid, tags }] });
      return service.getJob(uid);
    },
    'jobs:issueNow': async (engine) => {
      const { service } = ctx.require();
      const job = await service.issueJobNow({ engine });
      ctx.events.emit({ type: 'job', job_uid: job.uid, engine: job.chain, status: job.status });
      ctx.events.emit({ type: 'counts', scopes: ['jobs', 'credentials'] });
      return job;
    },
    'jobs:nextIssuing': async () => nextIssuing(ctx),
    'jobs:exportProofs': async (request) => {
      const { service } = ctx.require();
      /** The folder the proofs went to may be shown in the file manager afterwards. */
      const remembered = (result: ProofExportResult): ProofExportResult => {
        ctx.written.remember(result.folder);
        return result;
      };
      await checkFolder(request.folder);
      const label: TaskLabel =
        request.source.kind === 'job'
          ? { text: `Exporting the proofs of job ${request.source.jobUid}`, code: { id: 'exportProofsJob', name: request.source.jobUid } }
          : { text: 'Exporting the proofs of the selection', code: { id: 'exportProofsSelection' } };
      // The embedded engine builds the proofs from its database (atomic writes, main/workspace);
      // a remote service is asked for each proof over the spec's download endpoint.
      if (ctx.engine) {
        const scope = ctx.scope();
        return ctx.tasks.start<ProofExportResult>('export-proofs', label, async (task) => remembered(await exportProofsFromEngine(scope, request, task)));
      }
      return ctx.tasks.start<ProofExportResult>('export-proofs', label, async (task) => remembered(await exportProofs(ctx, service, request, task)));
    },
  };
}

async function jobCounts(service: IssuingService): Promise<Record<JobStatus, number>> {
  const totals = await Promise.all(JOB_STATUSES.map((status) => service.listJobs({ status, per_page: 1 }).then((p) => p.total_items)));
  return Object.fromEntries(JOB_STATUSES.map((s, i) => [s, totals[i] ?? 0])) as Record<JobStatus, number>;
}

/** The job's anchoring transaction and its explorer link (embedded engine only). */
function transactionOf(ctx: AppContext, jobUid: string, engine: string): JobDetail['transaction'] {
  if (!ctx.engine) return null;
  const scope = ctx.scope();
  const hash = jobTransactionHash(scope, jobUid);
  if (!hash) return null;
  const template = scope.catalog.find(engine)?.explorer_tx_url;
  return { id: hash, explorerUrl: template ? template.replace('{tx}', hash) : null };
}

function nextIssuing(ctx: AppContext): NextIssuing {
  if (!ctx.engine) return { nextIssuingDate: null, intervalSeconds: null };
  const scope = ctx.scope();
  const due = nextScheduledDate(scope);
  const interval = ctx.engine.partners.find(scope.partner.id)?.issuing_interval_seconds ?? null;
  return { nextIssuingDate: due === null ? null : new Date(due).toISOString(), intervalSeconds: interval };
}

async function checkFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (!info) await mkdir(folder, { recursive: true }).catch(() => {
    throw new ServiceError('invalid_value', `The folder ${folder} does not exist and cannot be made; choose another.`);
  });
  else if (!info.isDirectory()) throw new ServiceError('invalid_value', `${folder} is a file, not a folder; choose a folder.`);
}

/**
 * Remote mode: writes one NAME.proof.json per certificate, downloaded through IssuingService
 * (NAME from the credential's title; a second certificate of the same name gets its uid
 * appended), checking for cancel between files.
 */
async function exportProofs(ctx: AppContext, service: IssuingService, request: ProofExportRequest, task: TaskContext): Promise<ProofExportResult> {
  const certificates: Certificate[] = [];
  let withoutCertificate = 0;
  if (request.source.kind === 'job') {
    const jobUid = request.source.jobUid;
    for await (const batch of allPages((page) => service.listJobCertificates(jobUid, { per_page: EXPORT_PAGE, page }))) {
      certificates.push(...batch.items);
      task.progress(0, batch.total_items);
      task.signal.throwIfAborted();
    }
  } else {
    // Every engine's certificates of the selected credentials (the wire does not name a certificate's engine).
    const { selection } = request.source;
    // Remote mode resolves a selection through GET /credentials.
    const uids = await ctx.records().uids(selection, task);
    for (const uid of uids) {
      const found = await service.listCertificates({ credential_uid: uid, per_page: 0 });
      if (found.items.length === 0) withoutCertificate++;
      certificates.push(...found.items);
      task.signal.throwIfAborted();
    }
  }
  task.progress(0, certificates.length);
  const used = new Set<string>();
  let written = 0;
  for (const certificate of certificates) {
    task.signal.throwIfAborted();
    const { uid, credential } = certificate.certificate;
    let name = proofBaseName(credential.title ?? '', uid);
    if (used.has(name)) name = `${name}.${uid}`;
    used.add(name);
    const format = request.format ?? 'proof';
    if (format !== 'vc') await writeFile(join(request.folder, `${name}.proof.json`), await service.downloadCertificate(uid), { mode: 0o600 });
    if (format !== 'proof') await writeFile(join(request.folder, `${name}.vc.json`), await service.downloadCertificateVc(uid), { mode: 0o600 });
    task.progress(++written, certificates.length);
  }
  return { folder: request.folder, written, withoutCertificate };
}
