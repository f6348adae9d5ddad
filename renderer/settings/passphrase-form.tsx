import { useId, useState } from 'react';
import { MIN_KEYS_PASSPHRASE, type SettingsOverview } from '../../common/ipc/settings.js';
import { toServiceError } from '../ipc-error.js';
import { ErrorLine, type ShownError } from '../shell/error-line.js';
import { NewPassphraseFields, useNewPassphrase } from './new-passphrase-fields.js';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';

/**
 * The encrypted keys file's passphrase, typed in the app where there is no keychain: `unlock`
 * opens the existing file, `create` chooses a passphrase for a new one (typed twice). Main keeps
 * it in memory only; a wrong one is refused with a sentence and nothing changes.
 */
export function PassphraseForm({ mode, onDone, titled = true }: { mode: 'unlock' | 'create'; onDone: (overview: SettingsOverview) => void; titled?: boolean }) {
  const passphrase = useNewPassphrase(MIN_KEYS_PASSPHRASE);
  const { first, second } = passphrase;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const id = useId();
  const creating = mode === 'create';
  const mismatch = creating && second !== '' && first !== second;
  const short = creating && passphrase.short;
  const t = useT();
  const title = creating ? t('settings.keysPass.createTitle') : t('settings.keysPass.unlockTitle');

  return (
    <form
      // In a dialog the dialog's title names it: no second heading.
      {...(titled ? { 'aria-labelledby': `${id}-title` } : { 'aria-label': title })}
      onSubmit={(e) => {
        e.preventDefault();
        if (mismatch || short) return;
        setBusy(true);
        setError(null);
        const call = creating ? window.proofdesk.settingsCreatePassphrase(first, second) : window.proofdesk.settingsUnlockKeys(first);
        void call.then(
          (overview) => {
            passphrase.clear();
            setBusy(false);
            onDone(overview);
          },
          (failure: unknown) => {
            setError(toServiceError(failure));
            setBusy(false);
          },
        );
      }}
    >
      {titled && <h2 id={`${id}-title`}>{title}</h2>}
      <p className="muted">
        {creating
          ? t('settings.keysPass.createHelp')
          : t('settings.keysPass.unlockHelp')}
      </p>
      {creating ? (
        <NewPassphraseFields
          id={id}
          label={t('settings.keysPass.label')}
          againLabel={t('settings.keysPass.again')}
          hint={t('settings.keysPass.hint', { min: MIN_KEYS_PASSPHRASE })}
          passphrase={passphrase}
          autoFocus
        />
      ) : (
        <Field id={`${id}-pass`} label={t('settings.keysPass.label')} type="password" value={first} onChange={(e) => passphrase.setFirst(e.target.value)} required autoFocus autoComplete="current-password" />
      )}
      <ErrorLine error={error} className="error-panel" />
      <button type="submit" disabled={busy || first === '' || (creating && !passphrase.ready)}>
        {busy ? t('settings.keysPass.busy') : creating ? t('settings.keysPass.set') : t('settings.keysPass.unlock')}
      </button>
    </form>
  );
}
