import type { ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';

/**
 * A new passphrase typed twice (the keys file's, a key backup's): both fields, the hint under
 * the first, and the sentence when the two differ. The owner keeps the two values and decides
 * when the form may be sent.
 */
export function NewPassphraseFields(props: {
  id: string;
  /** The fields' accessible names (UI.md), e.g. `Keys passphrase` and `Type the keys passphrase again`. */
  label: string;
  againLabel: string;
  hint: ReactNode;
  first: string;
  second: string;
  onFirst: (value: string) => void;
  onSecond: (value: string) => void;
  autoFocus?: boolean;
}) {
  const { id, label, againLabel, hint, first, second, onFirst, onSecond, autoFocus } = props;
  const mismatch = second !== '' && first !== second;
  const t = useT();
  return (
    <>
      <Field id={`${id}-pass`} label={label} help={hint} type="password" value={first} onChange={(e) => onFirst(e.target.value)} required autoFocus={autoFocus} autoComplete="new-password" />
      <Field id={`${id}-again`} label={againLabel} type="password" value={second} onChange={(e) => onSecond(e.target.value)} required autoComplete="new-password" aria-invalid={mismatch} />
      {mismatch && (
        <div className="error-panel" role="alert">
          {t('settings.passphrase.differ')}
        </div>
      )}
    </>
  );
}
