import { useEffect, useState } from 'react';
import { copyText, type CopiedThing } from '../commands/copy-text.js';
import { useT } from '../i18n/use-t.js';

/** How long the button says "Copied" before it offers to copy again. */
const COPIED_MS = 4000;

/**
 * A `Copy …` button beside a value (a secret shown once, an address): puts the value on the
 * clipboard and says "Copied" on the button itself, so the admin sees it worked where they looked.
 * `name` is the button's accessible name, e.g. "Copy client secret" (UI.md: it starts with Copy).
 */
export function CopyButton({ value, name, what }: { value: string; name: string; what: CopiedThing }) {
  const [copied, setCopied] = useState(false);
  const t = useT();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button type="button" className="copy-button" aria-label={name} onClick={() => void copyText(value, what).then(setCopied)}>
      <span aria-hidden="true">{copied ? t('shell.copy.copied') : t('shell.copy.copy')}</span>
    </button>
  );
}
