import { useCallback, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageId } from './i18n-store.js';

/** Values a message formats: text and numbers, or (in `Message`) elements and tag functions. */
type PlainValues = Record<string, string | number | Date | null | undefined>;

/**
 * The catalogue's messages as plain strings in the window's language, for attributes and props.
 *
 * @example const t = useT(); <button aria-label={t('shell.toast.dismiss')} />
 */
export function useT(): (id: MessageId, values?: PlainValues) => string {
  const intl = useIntl();
  return useCallback((id: MessageId, values?: PlainValues) => intl.formatMessage({ id }, values), [intl]);
}

/**
 * A message of the catalogue with elements inside it (`<b>{name}</b>` in the message becomes
 * what `values.b` makes of its text), so the translator orders the whole sentence.
 */
export function Message({ id, values }: { id: MessageId; values?: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)> }) {
  return <FormattedMessage id={id} values={values as never} />;
}

/** `<strong>` for the `<b>` tags of a message. */
export const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** `<code>` for the `<code>` tags of a message. */
export const code = (chunks: ReactNode[]) => <code>{chunks}</code>;
