import { create } from 'zustand';
import type { MetadataKeyCount } from '../../common/records.js';

/** The most metadata keys the `Columns` dialog offers. */
const KEYS_OFFERED = 100;

export interface MetadataKeysStore {
  /** The Partner's metadata keys most used first; null where the connection cannot count them. */
  keys: MetadataKeyCount[] | null;
  /** Asks main again (the Records view opens, credentials changed, another Partner). */
  load(): Promise<void>;
}

/** The metadata keys the Records table offers as columns. */
export const useMetadataKeysStore = create<MetadataKeysStore>()((set) => ({
  keys: [],
  load: async () => {
    try {
      set({ keys: await window.proofdesk.recordsMetadataKeys(KEYS_OFFERED) });
    } catch {
      // Not offered this time; the table's own columns are unaffected, and the next change asks again.
      set({ keys: [] });
    }
  },
}));
