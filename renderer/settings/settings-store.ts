import { saveText } from '../shell/save-text.js';
import { useShellStore } from '../shell/shell-store.js';
import { create } from 'zustand';
import type { EngineSettings, KeysInfo, NewClientSecret, PartnerSettings, SettingsOverview } from '../../common/ipc/settings.js';
import { guarded, shownError } from '../ipc-error.js';
import { t } from '../i18n/i18n-store.js';
import type { ShownError } from '../shell/error-line.js';

export type SettingsTab = 'partner' | 'keys' | 'engines' | 'remote';

/** A result line under a form: what happened, or what went wrong and what to do. */
export interface Outcome {
  tone: 'success' | 'error';
  text: string;
  /** A refusal from main: its id and text, shown with Details. */
  error?: ShownError;
}

export interface SettingsStore {
  tab: SettingsTab;
  overview: SettingsOverview | null;
  keys: KeysInfo | null;
  keysLoading: boolean;
  /** A new client secret, kept only until the admin leaves the Partner tab. */
  newSecret: NewClientSecret | null;
  engines: EngineSettings[] | null;
  /**
   * The key backup made in this window, once it was written: where main saved it (Electron), or
   * the file the browser was given to save (the browser bridge). Null until then: nothing claims
   * a backup that did not happen.
   */
  backedUp: { path: string | null; fileName: string; at: string } | null;
  outcomes: Partial<Record<'interval' | 'secret' | 'backup' | 'restore' | 'load' | 'engineTest' | 'engineAdd', Outcome>>;
  busy: Partial<Record<'interval' | 'secret' | 'backup' | 'restore' | 'engineTest' | 'engineAdd', boolean>>;
  setTab(tab: SettingsTab): void;
  load(): Promise<void>;
  loadKeys(): Promise<void>;
  setInterval(interval: string): Promise<void>;
  makeNewSecret(): Promise<void>;
  /**
   * Backs the keys up: main's save dialog where it has one (the Electron window), else the
   * browser downloads the file. False when it failed or was cancelled.
   */
  backUp(passphrase: string): Promise<boolean>;
  /** Restores from main's open dialog (no `file`), or from a file the browser uploads. */
  restore(passphrase: string, file?: File): Promise<PartnerSettings | null>;
  loadEngines(): Promise<void>;
  testEngine(rpcUrl: string, chainId: number): Promise<void>;
  addEngine(engine: EngineSettings): Promise<boolean>;
}

/** A failed call as an outcome line says it: main's sentence, its id under Details. */
export function failedOutcome(error: unknown): Outcome {
  const shown = shownError(error);
  return { tone: 'error', text: shown.message, error: shown };
}

/** Settings: the active Partner, its keys and their backup. */
export const useSettingsStore = create<SettingsStore>()((set, get) => {
  const outcome = (key: keyof SettingsStore['outcomes'], value: Outcome | undefined) => set((s) => ({ outcomes: { ...s.outcomes, [key]: value } }));
  const busy = (key: keyof SettingsStore['busy'], value: boolean) => set((s) => ({ busy: { ...s.busy, [key]: value } }));
  /** Runs a call that loads a tab; a failure is said on the tab's own outcome line. */
  const loading = (work: () => Promise<unknown>) => guarded(work, (error) => outcome('load', { tone: 'error', text: error.message, error }));
  /** Runs a form's call: its buttons busy meanwhile, a failure said on its outcome line (and `failed` answered). */
  const attempt = async <R>(key: keyof SettingsStore['busy'], failed: R, work: () => Promise<R>): Promise<R> => {
    busy(key, true);
    try {
      return await work();
    } catch (error) {
      outcome(key, failedOutcome(error));
      return failed;
    } finally {
      busy(key, false);
    }
  };
  return {
    tab: 'partner',
    overview: null,
    keys: null,
    keysLoading: false,
    engines: null,
    backedUp: null,
    newSecret: null,
    outcomes: {},
    busy: {},
    setTab: (tab) => set({ tab, newSecret: null }),
    load: () =>
      loading(async () => {
        set({ overview: await window.proofdesk.settingsGet() });
        outcome('load', undefined);
      }),
    async loadKeys() {
      set({ keysLoading: true });
      try {
        set({ keys: await window.proofdesk.settingsKeys(), keysLoading: false });
      } catch (error) {
        set({ keysLoading: false });
        outcome('load', failedOutcome(error));
      }
    },
    setInterval: (interval) =>
      attempt('interval', undefined, async () => {
        const partner = await window.proofdesk.settingsSetInterval(interval);
        set((s) => ({ overview: s.overview ? { ...s.overview, partner } : s.overview }));
        outcome('interval', { tone: 'success', text: t('settings.interval.saved') });
      }),
    makeNewSecret: () =>
      attempt('secret', undefined, async () => {
        set({ newSecret: await window.proofdesk.settingsNewSecret() });
        outcome('secret', undefined);
      }),
    backUp: (passphrase) =>
      attempt('backup', false, async () => {
        const at = new Date().toISOString();
        if (useShellStore.getState().status?.canChooseFolder) {
          // Main asks where (the OS save dialog) and answers only once the file is written.
          const done = await window.proofdesk.settingsBackupKeys(passphrase);
          if (!done) {
            outcome('backup', undefined);
            return false;
          }
          set({ backedUp: { path: done.path, fileName: done.path.split(/[\\/]/).pop() ?? done.path, at } });
          outcome('backup', { tone: 'success', text: t('settings.backup.savedTo', { path: done.path }) });
          // Main recorded it: Settings › Keys says when and where, also after a restart.
          void get().loadKeys();
        } else {
          const file = await window.proofdesk.settingsBackupKeysFile(passphrase);
          saveText(file.fileName, file.content, 'application/json');
          set({ backedUp: { path: null, fileName: file.fileName, at } });
          outcome('backup', { tone: 'success', text: t('settings.backup.downloaded', { file: file.fileName }) });
        }
        return true;
      }),
    restore: (passphrase, file) =>
      attempt('restore', null, async () => {
        const partner = file ? await window.proofdesk.settingsRestoreKeysFile(file.name, await file.text(), passphrase) : await window.proofdesk.settingsRestoreKeys(passphrase);
        if (!partner) {
          outcome('restore', undefined);
          return null;
        }
        outcome('restore', { tone: 'success', text: t('settings.restore.done', { name: partner.name, address: partner.chain_address ?? '' }) });
        await get().load();
        await get().loadKeys();
        return partner;
      }),
    loadEngines: () => loading(async () => set({ engines: await window.proofdesk.settingsEngines() })),
    testEngine: (rpcUrl, chainId) =>
      attempt('engineTest', undefined, async () => {
        outcome('engineTest', undefined);
        const result = await window.proofdesk.settingsTestEngine(rpcUrl, chainId);
        outcome('engineTest', { tone: result.ok ? 'success' : 'error', text: result.message });
      }),
    addEngine: (engine) =>
      attempt('engineAdd', false, async () => {
        set({ engines: await window.proofdesk.settingsAddEngine(engine) });
        outcome('engineTest', undefined);
        outcome('engineAdd', { tone: 'success', text: t('settings.engines.added', { id: engine.id }) });
        return true;
      }),
  };
});
