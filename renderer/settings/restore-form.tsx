import { useId, useState } from 'react';
import type { PartnerSettings } from '../../common/ipc/settings.js';
import { useSettingsStore } from './settings-store.js';
import { OutcomeLine } from './outcome-line.js';
import { useShellStore } from '../shell/shell-store.js';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';

/** Restore a Partner's keys from a backup file: used by Settings › Keys and by the first run. */
export function RestoreForm({ onRestored }: { onRestored?: (partner: PartnerSettings) => void }) {
  const restore = useSettingsStore((s) => s.restore);
  const busy = useSettingsStore((s) => s.busy.restore ?? false);
  const outcome = useSettingsStore((s) => s.outcomes.restore);
  // Main's open dialog in the Electron window; a file input (an upload) in the browser.
  const native = useShellStore((s) => s.status?.canChooseFolder ?? false);
  const [file, setFile] = useState<File | null>(null);
  const t = useT();
  const [passphrase, setPassphrase] = useState('');
  const id = useId();
  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        void restore(passphrase, native ? undefined : (file ?? undefined)).then((partner) => {
          if (!partner) return;
          setPassphrase('');
          onRestored?.(partner);
        });
      }}
    >
      <h2 id={`${id}-title`}>{t('settings.restore.title')}</h2>
      <p className="muted">{t('settings.restore.help')}</p>
      {native ? (
        <p className="muted">{t('settings.restore.native')}</p>
      ) : (
        <Field id={`${id}-file`} label={t('settings.restore.file')} type="file" accept=".proofdesk-keys,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
      )}
      <Field id={`${id}-pass`} label={t('settings.restore.passphrase')} type="password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} required autoComplete="off" />
      <OutcomeLine outcome={outcome} />
      <button type="submit" disabled={busy || (!native && file === null) || passphrase === ''}>
        {busy ? t('settings.restore.busy') : t('settings.restore.submit')}
      </button>
    </form>
  );
}
