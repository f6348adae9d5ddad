import { isErrorId } from '../../common/errors.js';
import { useI18nStore, type MessageId } from '../i18n/i18n-store.js';
import { useT } from '../i18n/use-t.js';

/** An error as the window shows it: the spec's id, main's text, and optionally more technical detail. */
export interface ShownError {
  id: string;
  message: string;
  /** Technical text for the Details disclosure (a path, a library's own message, a command to run). */
  detail?: string | null;
}

/**
 * Splits an error text into its first sentence (what the admin reads) and the rest (for Details).
 * A sentence ends at `.`, `!` or `?` followed by a space and a capital or a quote, so "e.g. 30m"
 * and "1.5 ETH" stay whole.
 *
 * @example firstSentence('No keychain. Install gnome-keyring.') // ['No keychain.', 'Install gnome-keyring.']
 */
export function firstSentence(text: string): [head: string, rest: string] {
  const match = /[.!?]\s+(?=[\p{Lu}"“„`(])/u.exec(text);
  if (!match) return [text.trim(), ''];
  const end = match.index + 1;
  return [text.slice(0, end).trim(), text.slice(end).trim()];
}

/**
 * An error in plain words, announced: one sentence with what to do, and under "Details" the
 * spec's error id and the technical rest. Every view shows its errors through this (dialogs through
 * DialogError, Settings through OutcomeLine), so an error looks and reads the same everywhere.
 * `headline` replaces main's first sentence where the view knows a plainer one; main's whole text then goes to Details.
 * Main words its errors in English (they are the service's, over REST too): in another language
 * the headline is the catalogue's sentence for the error's id, and main's text goes to Details.
 * A string is a sentence the window itself wrote (a form check): shown as it is, with no Details.
 */
export function ErrorLine({ error, headline, className = 'row-error' }: { error: ShownError | string | null | undefined; headline?: string; className?: string }) {
  const t = useT();
  const english = useI18nStore((s) => s.locale === 'en');
  if (!error) return null;
  if (typeof error === 'string') {
    return (
      <div className={className} role="alert">
        <p className="error-headline">{error}</p>
      </div>
    );
  }
  const worded = headline ?? (!english && isErrorId(error.id) ? t(`error.headline.${error.id}` as MessageId) : undefined);
  const [head, rest] = worded !== undefined ? [worded, error.message] : firstSentence(error.message);
  const technical = [rest, error.detail].filter(Boolean).join('\n');
  return (
    <div className={className} role="alert" data-error-id={error.id}>
      <p className="error-headline">{head}</p>
      <ErrorDetails technical={technical} id={error.id} />
    </div>
  );
}

/** An error's `Details` disclosure: main's technical text (English) and the spec's error id. */
export function ErrorDetails({ technical, id }: { technical: string; id: string }) {
  const t = useT();
  return (
    <details className="error-details">
      <summary>{t('error.details')}</summary>
      {technical && (
        <p className="error-technical" lang="en">
          {technical}
        </p>
      )}
      <p>
        {t('error.id')} <code>{id}</code>
      </p>
    </details>
  );
}

/**
 * ErrorLine's compact form for a grid cell: one line with the catalogue's sentence for the
 * error's id (the same words in every language), cut with "…" where the cell is narrow; the
 * whole text on hover, and under the line's own disclosure main's text and the spec's id.
 * `headline` replaces the catalogue's sentence where the view knows a more exact one.
 * `headlineId` ids the visible sentence, for a field's `aria-describedby`.
 */
export function ErrorCell({ error, headline, headlineId, alert = false }: { error: ShownError; headline?: string; headlineId?: string; alert?: boolean }) {
  const t = useT();
  const worded = headline ?? (isErrorId(error.id) ? t(`error.headline.${error.id}` as MessageId) : firstSentence(error.message)[0]);
  const technical = [error.message, error.detail].filter(Boolean).join('\n');
  const idLine = `${t('error.id')} ${error.id}`;
  return (
    <div className="error-cell row-error" role={alert ? 'alert' : undefined} data-error-id={error.id}>
      <details>
        <summary id={headlineId} title={[worded, technical, idLine].filter(Boolean).join('\n')}>
          {worded}
        </summary>
        {technical && (
          <p className="error-technical" lang="en">
            {technical}
          </p>
        )}
        <p className="error-technical">
          {t('error.id')} <code>{error.id}</code>
        </p>
      </details>
    </div>
  );
}
