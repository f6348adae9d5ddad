/**
 * What every IPC handler works on: the active Partner and its service, the Partners of the data
 * directory, the event bus and the task runner. Free of Electron, so the Electron window and the
 * browser bridge share it. The active Partner can change (the status bar's switcher): handlers
 * ask for the service on every call, never keep one.
 */
import { WrittenPaths } from './written-paths.js';
import type { CommandId } from '../../common/commands.js';
import type { AppNotification } from '../../common/ipc/app.js';
import { ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { TaskRunner } from '../../common/tasks.js';
import type { Partner } from '../../common/wire-types.js';
import type { Engine } from '../engine/index.js';
import type { PartnerScope } from '../engine/scope.js';
import { embeddedRecords, remoteRecords, type RecordsBackend } from '../workspace/records-backend.js';
import { EventBus } from './event-bus.js';
import { watchJobs } from './job-watcher.js';
import { watchRemoteJobs } from './remote-job-watcher.js';
import { InProcessTaskRunner } from './task-runner.js';
import { RemoteJobSummaries } from './remote-job-summaries.js';
import type { UiLocale } from '../../common/ui-locales.js';
import type { NativeWordId } from './menu-labels.js';

/** The remote service the app uses instead of the embedded engine (Settings › Remote connections). */
export interface RemoteInUse {
  service: IssuingService & { close(): Promise<void> };
  partner: Partner;
  baseUrl: string;
  clientId: string;
}

export interface AppContext {
  readonly events: EventBus;
  readonly tasks: TaskRunner;
  /**
   * The engine the views work on: the embedded engine, or null while the app uses a remote
   * service (then every handler takes its IssuingService path). Read it on every call.
   */
  readonly engine: Engine | null;
  /** The data directory's own engine, whichever service is in use (Settings, the key store). */
  readonly embedded: Engine | null;
  /** The remote service in use, or null for the embedded engine. */
  remote(): RemoteInUse | null;
  /** The Jobs table's summaries of the service in use when it is remote (kept for the connection's life); null for the embedded engine. */
  remoteJobSummaries(): RemoteJobSummaries | null;
  /** Makes every view work over a remote service; the previous remote one is closed. */
  useRemote(remote: RemoteInUse): Promise<void>;
  /** Back to the embedded engine (and its first Partner when the active one is unknown). */
  useEmbedded(): Promise<void>;
  /** Why the saved remote connection could not be used at start (shown in Settings), until another choice is made. */
  remoteStartProblem: string | null;
  readonly keyStore: 'keychain' | 'encrypted-file' | null;
  /** Why issuing is off, when it is; null again once a locked key store is unlocked. */
  readonly issuingOff: string | null;
  /** `unlock` / `create`: the encrypted keys file waits for its passphrase; null otherwise. */
  keyLock(): KeyLockState;
  /** Opens the locked key store with the passphrase (a wrong one: `invalid_value`, nothing changed). */
  unlockKeys(passphrase: string): Promise<void>;
  /** The OS folder picker, where there is one (the Electron window). */
  readonly chooseFolder: ((title: string) => Promise<string | null>) | null;
  /** The OS save / open file dialogs, where there are (the Electron window); null when cancelled. */
  readonly chooseFile: ((request: FileDialogRequest) => Promise<string | null>) | null;
  /** The native application menu, where there is one (the Electron window). */
  readonly menu: AppMenu | null;
  /** The OS notifier, where main has one (the Electron window). */
  readonly notify: ((notification: AppNotification) => void) | null;
  /** Shows a file or folder in the OS file manager, where there is one (the Electron window). */
  readonly showInFolder: ((path: string) => void) | null;
  /** What the app wrote in this session: the only paths `showInFolder` is used for. */
  readonly written: WrittenPaths;
  /** The operating system's language (Electron's `app.getLocale()`); null where the page asks its browser. */
  readonly osLocale: string | null;
  partner(): Partner | null;
  partners(): Partner[];
  /** The active Partner's service, or null when there is no Partner yet. */
  service(): IssuingService | null;
  /** The active Partner and its service; throws a sentence the admin can act on when there is none. */
  require(): { partner: Partner; service: IssuingService };
  /**
   * The active Partner's scope in the embedded engine, for the workspace queries the spec's
   * endpoints do not offer (windows, search, selections). A remote service has none.
   */
  scope(): PartnerScope;
  /**
   * The active connection's records (the embedded engine's Partner, or the remote service),
   * chosen when the connection or the Partner changes; throws like require() when there is none.
   */
  records(): RecordsBackend;
  /** Makes another Partner active; throws `not_found` for an unknown id. */
  switchPartner(partnerId: string): Partner;
  /** Stops following the engine's and the remote service's jobs (the app is closing). */
  close(): void;
}

/** What main's file dialog asks: save a new file (with a suggested name) or open one. */
export interface FileDialogRequest {
  kind: 'save' | 'open';
  /** The title, as a catalogue id: the desktop window words it in the page's language. */
  title: NativeWordId;
  defaultName?: string;
  /** File name extensions offered (without the dot). */
  extensions?: string[];
  /** What the dialog's file type filter calls those files, as a catalogue id (default: a Proofdesk key backup). */
  filterName?: NativeWordId;
}

export type KeyLockState = 'unlock' | 'create' | null;

/** The native application menu of the Electron window (main/app/app-menu.ts). */
export interface AppMenu {
  /** Greys out every command but these (the page judges what can run now). */
  setEnabled(enabled: readonly CommandId[]): void;
  /** Runs a command's menu item as a click on it would (the palette's way to the platform's roles). */
  run(command: CommandId): void;
  /** Rebuilds the menu's labels in the language the page speaks. */
  setLocale(locale: UiLocale): void;
}

/** A key store that opens with a passphrase typed in the app (main/workspace/settings/unlockable-store.ts). */
export interface KeyLock {
  lockState(): KeyLockState;
  unlock(passphrase: string): Promise<void>;
}

/** The OS parts the Electron window offers (absent in the browser bridge and in tests). */
type DesktopParts = 'chooseFolder' | 'chooseFile' | 'menu' | 'notify' | 'showInFolder' | 'osLocale';

export interface AppContextOptions extends Partial<{ [K in DesktopParts]: NonNullable<AppContext[K]> }> {
  engine?: Engine | null;
  /** The first active Partner (default: the engine's first). */
  partner: Partner | null;
  /** A fixed service (remote mode, or tests); by default the engine's service for the Partner. */
  service?: IssuingService | null;
  keyStore?: 'keychain' | 'encrypted-file' | null;
  issuingOff?: string | null;
  /** The locked key store, when the keys wait for a passphrase typed in the app. */
  keyLock?: KeyLock;
  /** Called once the key store is unlocked (the app starts issuing then). */
  onKeysUnlocked?: () => void;
}

/**
 * Builds the context.
 *
 * @example const ctx = createAppContext({ engine, partner, keyStore: 'keychain', issuingOff: null })
 */
export function createAppContext(options: AppContextOptions): AppContext {
  const events = new EventBus();
  const tasks = new InProcessTaskRunner((event) => events.emit(event));
  const embedded = options.engine ?? null;
  let partner = options.partner;
  let service: IssuingService | null = options.service ?? (embedded && partner ? embedded.serviceFor(partner.id) : null);
  let remote: RemoteInUse | null = null;
  // A service given without an engine is another process's: its summaries cost requests too.
  let remoteSummaries: RemoteJobSummaries | null = !embedded && service ? new RemoteJobSummaries(service) : null;
  let stopRemoteWatch = () => {};
  let stopJobWatch = () => {};
  let keyStore = options.keyStore ?? null;
  let issuingOff = options.issuingOff ?? null;
  /** The embedded Partner to come back to from remote mode. */
  let embeddedPartner = partner;
  // The engine views work on: none while a remote service is in use.
  const working = () => (remote ? null : embedded);
  /** The connection's records, chosen again whenever the connection or the Partner changes. */
  let records: RecordsBackend | null = null;
  const chooseRecords = () => {
    const engine = working();
    records = engine && partner ? embeddedRecords(engine.scopeFor(partner.id)) : service ? remoteRecords(service) : null;
  };
  chooseRecords();

  const partners = (): Partner[] => {
    const engine = working();
    return engine ? engine.partners.list().map((p) => ({ id: p.id, name: p.name })) : partner ? [partner] : [];
  };
  const changed = () => {
    if (partner) events.emit({ type: 'partner', partner });
    events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'files', 'tags'] });
  };

  const context: AppContext = {
    events,
    tasks,
    get engine() {
      return working();
    },
    embedded,
    remote: () => remote,
    remoteJobSummaries: () => remoteSummaries,
    remoteStartProblem: null,
    async useRemote(next) {
      const before = remote;
      if (!before) embeddedPartner = partner;
      remote = next;
      remoteSummaries = new RemoteJobSummaries(next.service);
      partner = next.partner;
      service = next.service;
      chooseRecords();
      stopRemoteWatch();
      stopRemoteWatch = watchRemoteJobs(events, next.service, (named) => {
        // The spec has no "who am I": the Partner's name shows once it has a job.
        if (remote !== next || partner?.id === named.id) return;
        partner = named;
        next.partner = named;
        events.emit({ type: 'partner', partner: named });
      });
      if (before && before.service !== next.service) await before.service.close().catch(() => undefined);
      changed();
    },
    async useEmbedded() {
      const before = remote;
      remote = null;
      remoteSummaries = null;
      stopRemoteWatch();
      stopRemoteWatch = () => {};
      const known = embedded && embeddedPartner ? embedded.partners.find(embeddedPartner.id) : undefined;
      const first = embedded?.partners.list()[0];
      const record = known ?? first;
      partner = record ? { id: record.id, name: record.name } : null;
      service = embedded && partner ? embedded.serviceFor(partner.id) : null;
      chooseRecords();
      if (before) await before.service.close().catch(() => undefined);
      changed();
    },
    get keyStore() {
      return keyStore;
    },
    get issuingOff() {
      return issuingOff;
    },
    keyLock: () => options.keyLock?.lockState() ?? null,
    async unlockKeys(passphrase) {
      if (!options.keyLock) throw new ServiceError('invalid_value', 'The keys are not kept in a file that waits for a passphrase here; there is nothing to unlock.');
      if (options.keyLock.lockState() === null) return;
      await options.keyLock.unlock(passphrase);
      keyStore = 'encrypted-file';
      issuingOff = null;
      options.onKeysUnlocked?.();
      changed();
    },
    chooseFolder: options.chooseFolder ?? null,
    chooseFile: options.chooseFile ?? null,
    menu: options.menu ?? null,
    notify: options.notify ?? null,
    showInFolder: options.showInFolder ?? null,
    written: new WrittenPaths(),
    osLocale: options.osLocale ?? null,
    partner: () => partner,
    partners,
    service: () => service,
    require() {
      if (!partner || !service) {
        throw new ServiceError('unauthorized', 'There is no Partner yet: add one with `npm run cli -- partner add --name NAME`, then restart Proofdesk.');
      }
      return { partner, service };
    },
    scope() {
      const { partner: active } = this.require();
      const engine = working();
      if (!engine) {
        throw new ServiceError('not_found', 'The records table, search and bulk work need the embedded engine; a remote service offers the per-credential actions only.');
      }
      return engine.scopeFor(active.id);
    },
    records() {
      this.require();
      return records!;
    },
    switchPartner(partnerId) {
      const next = partners().find((p) => p.id === partnerId);
      if (!next) throw new ServiceError('not_found', 'That Partner is not in this data directory; pick one from the list.');
      const engine = working();
      if (!engine) throw new ServiceError('invalid_value', 'A remote service has one Partner; there is nothing to switch to.');
      partner = next;
      service = engine.serviceFor(next.id);
      chooseRecords();
      changed();
      return next;
    },
    close() {
      stopJobWatch();
      stopRemoteWatch();
    },
  };
  stopJobWatch = embedded ? watchJobs(embedded, events, () => (remote ? null : (partner?.id ?? null))) : () => {};
  return context;
}
