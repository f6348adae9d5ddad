/**
 * Handlers of the app shell's slice (common/ipc/app.ts): overview, status bar, Partner switch, tasks.
 */
import { ServiceError } from '../../../common/errors.js';
import type { APP_IPC, AppStatus, EngineStatus, Overview } from '../../../common/ipc/app.js';
import { JOB_STATUSES, type JobStatus } from '../../../common/wire-types.js';
import { packageVersion } from '../../api/version.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

const ZERO_JOBS = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;

export function createAppHandlers(ctx: AppContext, chains: { state(engine: string): Pick<EngineStatus, 'chain' | 'detail' | 'block' | 'funds'>; refresh(): void }): HandlersOf<typeof APP_IPC> {
  const status = async (): Promise<AppStatus> => {
    chains.refresh();
    const service = ctx.service();
    const engines = service ? await service.listEngines() : [];
    return {
      partner: ctx.partner(),
      partners: ctx.partners(),
      engines: engines.map((e) => ({ ...e, ...chains.state(e.id) })),
      keyStore: ctx.keyStore,
      issuingOff: ctx.issuingOff,
      mode: ctx.engine ? 'embedded' : 'remote',
      canChooseFolder: ctx.chooseFolder !== null,
      canShowInFolder: ctx.showInFolder !== null,
      nativeMenu: ctx.menu !== null,
      version: packageVersion(),
      osLocale: ctx.osLocale,
    };
  };
  return {
    'overview:get': () => getOverview(ctx),
    'app:status': status,
    'app:switchPartner': async (partnerId) => {
      ctx.switchPartner(partnerId);
      return status();
    },
    'app:chooseFolder': async (title) => (ctx.chooseFolder ? ctx.chooseFolder(title) : null),
    'app:commandsEnabled': async (enabled) => {
      ctx.menu?.setEnabled(enabled);
    },
    'app:runCommand': async (command) => {
      if (!ctx.menu) throw new ServiceError('not_found', 'This window has no application menu: the browser carries out its own window, zoom and clipboard commands.');
      ctx.menu.run(command);
    },
    'app:uiLocale': async (locale) => {
      ctx.menu?.setLocale(locale);
    },
    'app:notify': async (notification) => {
      if (!ctx.notify) return { shown: false };
      ctx.notify(notification);
      return { shown: true };
    },
    'app:showInFolder': async (path) => {
      if (!ctx.showInFolder) throw new ServiceError('invalid_value', 'This window has no file manager to show files in: the browser keeps what it downloaded in its downloads.');
      if (!ctx.written.has(path)) throw new ServiceError('invalid_value', 'Proofdesk shows only files it saved itself in this session, and this is not one of them.');
      ctx.showInFolder(path);
    },
    'tasks:list': async () => ctx.tasks.list(),
    'tasks:cancel': async (taskId) => {
      ctx.tasks.cancel(taskId);
      const task = ctx.tasks.get(taskId);
      if (!task) throw new ServiceError('not_found', 'That task is no longer known; it may have finished long ago.');
      return task;
    },
  };
}

async function getOverview(ctx: AppContext): Promise<Overview> {
  const partner = ctx.partner();
  const service = ctx.service();
  const engines = service ? await service.listEngines() : [];
  if (!partner || !service) {
    return { partner: null, engines, counts: { files: 0, credentials: 0, jobs: { ...ZERO_JOBS } } };
  }
  // Counts go through IssuingService only (per_page 1, read total_items), so the overview
  // works the same against a remote service as against the embedded engine.
  const [files, credentials, ...jobCounts] = await Promise.all([
    service.listFiles({ per_page: 1 }).then((p) => p.total_items),
    service.listCredentials({ per_page: 1 }).then((p) => p.total_items),
    ...JOB_STATUSES.map((status) => service.listJobs({ status, per_page: 1 }).then((p) => p.total_items)),
  ]);
  const jobs = Object.fromEntries(JOB_STATUSES.map((s, i) => [s, jobCounts[i] ?? 0])) as Record<JobStatus, number>;
  return { partner, engines, counts: { files: files ?? 0, credentials: credentials ?? 0, jobs } };
}
