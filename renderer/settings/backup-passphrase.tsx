import { useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { NewPassphraseFields } from './new-passphrase-fields.js';
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
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const t = useT();
  const mismatch = second !== '' && first !== second;
  const short = first !== '' && first.length < MIN_BACKUP_PASSPHRASE;
  const ready = first !== '' && second !== '' && !mismatch && !short;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    void backUp(first).then((ok) => {
      if (!ok) return;
      setFirst('');
      setSecond('');
    });
  };
  const fields = (
    <>
      <NewPassphraseFields
        id={id}
        label={t('settings.backup.passphrase')}
        againLabel={t('settings.backup.again')}
        hint={t('settings.backup.hint', { min: MIN_BACKUP_PASSPHRASE })}
        first={first}
        second={second}
        onFirst={setFirst}
        onSecond={setSecond}
        autoFocus={autoFocus}
      />
      {short && (
        <p className="muted" role="status">
          {t('settings.backup.short', { min: MIN_BACKUP_PASSPHRASE })}
        </p>
      )}
    </>
  );
  return { fields, ready, onSubmit };
}
