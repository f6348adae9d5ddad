import { useEffect, useState } from 'react';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { PassphraseForm } from './passphrase-form.js';
import { useT } from '../i18n/use-t.js';

/**
 * The status bar's "Unlock keys": shown while the encrypted keys file waits for its passphrase
 * (no keychain here). The dialog opens by itself once when the app starts locked with a Partner;
 * the first run asks on its own page instead.
 */
export function UnlockKeys({ issuingOff }: { issuingOff: string | null }) {
  const [locked, setLocked] = useState(false);
  const [open, setOpen] = useState(false);
  const hasPartner = useShellStore((s) => s.status?.partner !== null && s.status?.partner !== undefined);
  const loadStatus = useShellStore((s) => s.loadStatus);
  const t = useT();

  useEffect(() => {
    if (!issuingOff) {
      setLocked(false);
      return;
    }
    let live = true;
    void window.proofdesk.settingsGet().then(
      (overview) => {
        if (!live) return;
        const waiting = overview.keyLock === 'unlock';
        setLocked(waiting);
        if (waiting && hasPartner) setOpen(true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [issuingOff, hasPartner]);

  if (!locked) return null;
  return (
    <>
      <button type="button" className="link-button" onClick={() => setOpen(true)}>
        {t('settings.keysPass.unlock')}
      </button>
      {open && (
        <Modal title={t('settings.keysPass.unlockTitle')} onClose={() => setOpen(false)}>
          <PassphraseForm
            mode="unlock"
            titled={false}
            onDone={() => {
              setOpen(false);
              setLocked(false);
              void loadStatus();
            }}
          />
          <button type="button" onClick={() => setOpen(false)}>
            {t('settings.unlock.notNow')}
          </button>
        </Modal>
      )}
    </>
  );
}
