import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';

/** A new passphrase typed twice, at least `min` characters: both values, and whether it may be sent. */
export function useNewPassphrase(min: number) {
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const short = first !== '' && first.length < min;
  const ready = first !== '' && second !== '' && first === second && !short;
  const clear = () => {
    setFirst('');
    setSecond('');
  };
  return { first, second, setFirst, setSecond, short, ready, clear };
}

/**
 * A new passphrase typed twice (the keys file's, a key backup's): both fields, the hint under
 * the first, and the sentence when the two differ. The owner keeps the two values
 * (useNewPassphrase) and decides when the form may be sent.
 */
export function NewPassphraseFields(props: {
  id: string;
  /** The fields' accessible names (UI.md), e.g. `Keys passphrase` and `Type the keys passphrase again`. */
  label: string;
  againLabel: string;
  hint: ReactNode;
  passphrase: ReturnType<typeof useNewPassphrase>;
  autoFocus?: boolean;
}) {
  const { id, label, againLabel, hint, passphrase, autoFocus } = props;
  const { first, second, setFirst, setSecond } = passphrase;
  const mismatch = second !== '' && first !== second;
  const t = useT();
  return (
    <>
      <Field id={`${id}-pass`} label={label} help={hint} type="password" value={first} onChange={(e) => setFirst(e.target.value)} required autoFocus={autoFocus} autoComplete="new-password" />
      <Field id={`${id}-again`} label={againLabel} type="password" value={second} onChange={(e) => setSecond(e.target.value)} required autoComplete="new-password" aria-invalid={mismatch} />
      {mismatch && (
        <div className="error-panel" role="alert">
          {t('settings.passphrase.differ')}
        </div>
      )}
    </>
  );
}
