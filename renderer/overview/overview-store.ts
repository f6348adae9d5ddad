import { create } from 'zustand';
import type { Overview } from '../../common/ipc-contract.js';
import type { ErrorId } from '../../common/errors.js';
import { toServiceError } from '../ipc-error.js';

export type OverviewState =
  | { status: 'loading'; overview: Overview | null }
  | { status: 'ready'; overview: Overview }
  | { status: 'error'; overview: Overview | null; error: { id: ErrorId; message: string } };

export interface OverviewStore {
  state: OverviewState;
  /** (Re)loads the overview from the main process; keeps the last one shown meanwhile. */
  load(): Promise<void>;
}

/** The home screen's data: the active Partner, the engines and the counts. */
export const useOverviewStore = create<OverviewStore>()((set, get) => ({
  state: { status: 'loading', overview: null },
  async load() {
    const previous = get().state.overview;
    set({ state: { status: 'loading', overview: previous } });
    try {
      const overview = await window.proofdesk.overviewGet();
      set({ state: { status: 'ready', overview } });
    } catch (error) {
      const { id, message } = toServiceError(error);
      set({ state: { status: 'error', overview: previous, error: { id, message } } });
    }
  },
}));
