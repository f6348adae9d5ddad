import { create } from 'zustand';
import type { CredentialDetail } from '../../common/ipc/detail.js';
import type { TaskError } from '../../common/tasks.js';
import type { VerificationResult } from '../../common/wire-types.js';
import { guarded, shownError } from '../ipc-error.js';
import { onAppEvent } from '../shell/app-events.js';
import { t } from '../i18n/i18n-store.js';
import { saveText } from '../shell/save-text.js';

export interface DetailStore {
  /** The credential shown, or null when the panel is closed. */
  uid: string | null;
  detail: CredentialDetail | null;
  loading: boolean;
  error: TaskError | null;
  /** Verification runs by certificate uid. */
  verifications: Record<string, VerificationResult>;
  /** What is being done right now (`verify:<cert>`, `revoke:<engine>`, ...), for busy buttons. */
  busy: string | null;
  /** A sentence about what just happened, for a live region. */
  notice: string | null;
  open(uid: string): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  verify(certificateUid: string): Promise<void>;
  downloadProof(certificateUid: string): Promise<void>;
  /** Saves the certificate as a Verifiable Credential (Open Badges 3.0) for a wallet. */
  downloadCredential(certificateUid: string): Promise<void>;
  unschedule(engine: string): Promise<void>;
  revoke(engine: string): Promise<void>;
  /** Opens a file where it is on disk (desktop) or saves the stored copy (browser). */
  openOriginal(fileHash: string): Promise<void>;
}

/** The detail panel's credential and what the admin does with it. */
export const useDetailStore = create<DetailStore>()((set, get) => {
  const run = async (busy: string, work: () => Promise<void>) => {
    set({ busy, error: null, notice: null });
    await guarded(work, (error) => set({ error }));
    set({ busy: null });
  };

  /** Saves a file main makes of a certificate (its proof, its wallet credential) as a download. */
  const saveFile = (busy: string, make: () => Promise<{ file_name: string; text: string }>) =>
    run(busy, async () => {
      const file = await make();
      saveText(file.file_name, file.text, 'application/json');
      set({ notice: t('detail.notice.saved', { file: file.file_name }) });
    });
  const reloadOpen = () => {
    if (get().uid && !get().busy) void get().reload();
  };
  onAppEvent('counts', reloadOpen);
  onAppEvent('job', reloadOpen);

  return {
    uid: null,
    detail: null,
    loading: false,
    error: null,
    verifications: {},
    busy: null,
    notice: null,
    async open(uid) {
      set({ uid, loading: true, error: null, notice: null, verifications: {} });
      try {
        const detail = await window.proofdesk.detailGet(uid);
        if (get().uid === uid) set({ detail, loading: false });
      } catch (error) {
        if (get().uid === uid) set({ detail: null, loading: false, error: shownError(error) });
      }
    },
    close: () => set({ uid: null, detail: null, error: null, notice: null }),
    async reload() {
      const uid = get().uid;
      if (!uid) return;
      try {
        const detail = await window.proofdesk.detailGet(uid);
        if (get().uid === uid) set({ detail });
      } catch {
        // Shown again on the next open; a background refresh does not replace what is on screen.
      }
    },
    verify: (certificateUid) =>
      run(`verify:${certificateUid}`, async () => {
        const result = await window.proofdesk.detailVerify(certificateUid);
        set((s) => ({ verifications: { ...s.verifications, [certificateUid]: result }, notice: t('detail.notice.verified', { status: t('verify.result', { result: result.result.status }) }) }));
      }),
    downloadProof: (certificateUid) => saveFile(`proof:${certificateUid}`, () => window.proofdesk.detailProof(certificateUid)),
    downloadCredential: (certificateUid) => saveFile(`credential:${certificateUid}`, () => window.proofdesk.detailCredential(certificateUid)),
    unschedule: (engine) =>
      run(`unschedule:${engine}`, async () => {
        const uid = get().uid!;
        const detail = await window.proofdesk.detailUnschedule(uid, engine);
        if (detail) set({ detail, notice: t('detail.notice.unscheduled', { engine }) });
        else set({ detail: null, uid: null, notice: t('detail.notice.unscheduledDeleted', { engine }) });
      }),
    openOriginal: (fileHash) =>
      run(`open:${fileHash}`, async () => {
        const result = await window.proofdesk.detailOpenOriginal(get().uid!, fileHash);
        if (result.kind === 'opened') {
          set({ notice: t('detail.notice.opened', { path: result.path }) });
          return;
        }
        const bytes = Uint8Array.from(atob(result.base64), (c) => c.charCodeAt(0));
        saveText(result.fileName, bytes, result.type ?? 'application/octet-stream');
        set({ notice: t('detail.notice.saved', { file: result.fileName }) });
      }),
    revoke: (engine) =>
      run(`revoke:${engine}`, async () => {
        const detail = await window.proofdesk.detailRevoke(get().uid!, engine);
        set({ detail, notice: t('detail.notice.revoked', { engine }) });
      }),
  };
});

/** Opens the detail panel on a credential (records table, staging results, record tree). */
export function openDetail(uid: string): void {
  void useDetailStore.getState().open(uid);
}
