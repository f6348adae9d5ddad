import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * A form's labelled input (`.field`): the label names it, and `help`, a sentence under it,
 * describes it (`aria-describedby`).
 *
 * @example <Field id={`${id}-name`} label={t('firstRun.name')} value={name} onChange={(e) => setName(e.target.value)} required />
 */
export function Field({ id, label, help, ...input }: { id: string; label: string; help?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} {...(help ? { 'aria-describedby': `${id}-help` } : {})} />
      {help && (
        <span id={`${id}-help`} className="muted">
          {help}
        </span>
      )}
    </div>
  );
}
