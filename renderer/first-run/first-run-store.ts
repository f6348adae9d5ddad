import { create } from 'zustand';
import type { NewClientSecret, PartnerSettings, SettingsOverview } from '../../common/ipc/settings.js';
import { guarded, shownError } from '../ipc-error.js';
import type { ShownError } from '../shell/error-line.js';

export interface FirstRunStore {
  overview: SettingsOverview | null;
  busy: boolean;
  error: ShownError | null;
  /** Set once the Partner is made: its client credentials, the secret shown this once. */
  created: ({ partner: PartnerSettings } & NewClientSecret) | null;
  load(): Promise<void>;
  submit(name: string, issuingInterval: string): Promise<boolean>;
  /** The admin has read the page: forget the secret. */
  finish(): void;
}

/** The first run: no Partner in the data directory yet. */
export const useFirstRunStore = create<FirstRunStore>()((set) => ({
  overview: null,
  busy: false,
  error: null,
  created: null,
  load: () => guarded(async () => set({ overview: await window.proofdesk.settingsGet() }), (error) => set({ error })),
  async submit(name, issuingInterval) {
    set({ busy: true, error: null });
    try {
      const created = await window.proofdesk.settingsFirstRun({ name, issuingInterval });
      set({ created, busy: false });
      return true;
    } catch (error) {
      set({ error: shownError(error), busy: false });
      return false;
    }
  },
  finish: () => set({ created: null }),
}));
