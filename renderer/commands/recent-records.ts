/**
 * The records the admin opened lately (newest first, at most 8), for the command palette.
 * Follows the detail panel: a credential whose detail has loaded counts as opened.
 */
import { create } from 'zustand';
import type { CredentialDetail } from '../../common/ipc/detail.js';
import { useDetailStore } from '../detail/detail-store.js';
import { onAppEvent } from '../shell/app-events.js';

export type RecentRecord = Pick<CredentialDetail['credential'], 'uid' | 'title'>;

const MAX_RECENT = 8;

export const useRecentRecords = create<{ recent: RecentRecord[] }>()(() => ({ recent: [] }));

useDetailStore.subscribe((state, before) => {
  const credential = state.detail?.credential;
  if (!credential || credential === before.detail?.credential) return;
  const entry = { uid: credential.uid, title: credential.title };
  useRecentRecords.setState((s) => ({ recent: [entry, ...s.recent.filter((r) => r.uid !== entry.uid)].slice(0, MAX_RECENT) }));
});

// Another Partner's records are not this one's.
onAppEvent('partner', () => useRecentRecords.setState({ recent: [] }));
