import type { FormEvent, ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { NewPassphraseFields, useNewPassphrase } from './new-passphrase-fields.js';
import { useSettingsStore } from './settings-store.js';

/** The shortest passphrase a key backup is sealed with. */
export const MIN_BACKUP_PASSPHRASE = 10;

/**
 * A key backup's passphrase typed twice (Settings › Keys and the first run's backup step): the
 * fields with the "too short" line, whether they may be sent, and the submit that backs the keys
 * up and empties the fields once the backup is written.
 */
export function useBackupPassphrase(id: string, autoFocus = false): { fields: ReactNode; ready: boolean; onSubmit: (event: FormEvent) => void } {
  const backUp = useSettingsStore((s) => s.backUp);
  const passphrase = useNewPassphrase(MIN_BACKUP_PASSPHRASE);
  const t = useT();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!passphrase.ready) return;
    void backUp(passphrase.first).then((ok) => ok && passphrase.clear());
  };
  const fields = (
    <>
      <NewPassphraseFields
        id={id}
        label={t('settings.backup.passphrase')}
        againLabel={t('settings.backup.again')}
        hint={t('settings.backup.hint', { min: MIN_BACKUP_PASSPHRASE })}
        passphrase={passphrase}
        autoFocus={autoFocus}
      />
      {passphrase.short && (
        <p className="muted" role="status">
          {t('settings.backup.short', { min: MIN_BACKUP_PASSPHRASE })}
        </p>
      )}
    </>
  );
  return { fields, ready: passphrase.ready, onSubmit };
}
