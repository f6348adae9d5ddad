/**
 * The IPC slice of the app shell: the status bar (partners, engines and their chains, where the
 * keys are kept, why issuing is off), Partner switching, and the tasks running in main.
 */
import type { EngineInfo, JobStatus, Partner } from '../wire-types.js';
import type { ChainState, TaskInfo } from '../tasks.js';
import { Type, type Static } from '@sinclair/typebox';
import { COMMAND_IDS } from '../commands.js';
import { UI_LOCALES } from '../ui-locales.js';
import { OneOf } from '../schemas/primitives.js';
import { argsOf } from './slice.js';

/** What the home screen shows: who is issuing, and how much the engine holds. */
export interface Overview {
  partner: Partner | null;
  engines: EngineInfo[];
  counts: {
    files: number;
    credentials: number;
    jobs: Record<JobStatus, number>;
  };
}

/** One engine with its chain's state, for the status bar. */
export interface EngineStatus extends EngineInfo {
  chain: ChainState;
  /** Where the chain stands (`at block 12`), or why it does not answer (the node's or the network's error, English). */
  detail: string | null;
  /** The chain's latest block when it last answered; null while it does not. */
  block: number | null;
  /** What the active Partner's account can pay for there; null before the first probe, on the local chain (it funds itself) and in remote mode. */
  funds: EngineFunds | null;
}

/** Fewer jobs than this paid for by the account's balance: the status bar and Settings warn. */
export const LOW_FUNDS_JOBS = 10;

/** The active Partner's account on an engine, against the cost of one job at today's fees. */
export interface EngineFunds {
  address: string;
  /** The balance in the chain's coin (ether and the like), as decimal text: `0.0042`. */
  balance: string;
  /** One job's estimated cost: the registry's issue gas × today's max fee per gas, formatted. */
  job_cost: string;
  /** Whole jobs the balance pays for at that cost. */
  jobs_covered: number;
  /** Fewer than LOW_FUNDS_JOBS jobs covered. */
  low: boolean;
}

/** Everything the status bar shows. */
export interface AppStatus {
  partner: Partner | null;
  /** Every Partner in the data directory (the switcher shows when there are several). */
  partners: Partner[];
  engines: EngineStatus[];
  /** Where the signing keys are kept; null when no store could be opened. */
  keyStore: 'keychain' | 'encrypted-file' | null;
  /** Why issuing is off, when it is (e.g. no keychain). */
  issuingOff: string | null;
  /** `embedded` (this machine's engine) or `remote` (a service over HTTPS). */
  mode: 'embedded' | 'remote';
  /** True where main can show the OS folder picker (the Electron window; not the browser bridge). */
  canChooseFolder: boolean;
  /** True where main can show a file it wrote in the OS file manager (Electron); the browser bridge downloads instead. */
  canShowInFolder: boolean;
  /** True where the window has the native application menu (Electron); the browser bridge shows a menu button instead. */
  nativeMenu: boolean;
  /** The app's version, for About and the diagnostics. */
  version: string;
  /** The operating system's language (Electron); null in the browser bridge, where the page takes its browser's languages. */
  osLocale: string | null;
}

/** An OS notification: a short title and one sentence. */
const NotificationSchema = Type.Object({ title: Type.String({ minLength: 1, maxLength: 120 }), body: Type.String({ minLength: 1, maxLength: 500 }) });
/** A system notification: a short title and a sentence. */
export type AppNotification = Static<typeof NotificationSchema>;

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Command = OneOf(COMMAND_IDS);

export const APP_IPC = {
  /** The active Partner and the engine's counts. */
  'overview:get': argsOf('overview:get', []).returns<Overview>(),
  /** The status bar's content. */
  'app:status': argsOf('app:status', []).returns<AppStatus>(),
  /** Makes another Partner of the data directory the active one. */
  'app:switchPartner': argsOf('app:switchPartner', ['partnerId'], Id).returns<AppStatus>(),
  /** The OS folder picker (Electron only): the chosen folder, or null when cancelled or unavailable. */
  'app:chooseFolder': argsOf('app:chooseFolder', ['title'], Id).returns<string | null>(),
  /** Tasks running or recently finished in main. */
  'tasks:list': argsOf('tasks:list', []).returns<TaskInfo[]>(),
  /** Asks a running task to stop; answers the task as it is now. */
  'tasks:cancel': argsOf('tasks:cancel', ['taskId'], Id).returns<TaskInfo>(),
  /** Which commands can run now (the page judges): the native menu greys out the others. */
  'app:commandsEnabled': argsOf('app:commandsEnabled', ['enabled'], Type.Array(Command, { maxItems: COMMAND_IDS.length })).returns<void>(),
  /** Runs a command main carries out (the platform's roles, the theme) as its menu item would. */
  'app:runCommand': argsOf('app:runCommand', ['command'], Command).returns<void>(),
  /** The language the page speaks now (Settings, the OS or the browser): main's menus follow it. */
  'app:uiLocale': argsOf('app:uiLocale', ['locale'], OneOf(UI_LOCALES)).returns<void>(),
  /**
   * Shows a file or folder in the OS file manager (Electron). Only a path the app itself wrote in
   * this session (an export, a key backup) is shown; any other is refused with `invalid_value`.
   */
  'app:showInFolder': argsOf('app:showInFolder', ['path'], Type.String({ minLength: 1, maxLength: 4096 })).returns<void>(),
  /**
   * Shows an OS notification (the page decides when: background work ended while the window
   * was in the background). False where main has no OS notifier (the browser bridge: the
   * page uses the browser's Notification API there).
   */
  'app:notify': argsOf('app:notify', ['notification'], NotificationSchema)
    .map(([{ title, body }]) => [{ title, body }])
    .returns<{ shown: boolean }>(),
};
