import { useState } from 'react';
import { useT } from '../i18n/use-t.js';

/** A metadata value as text in the grid: strings as they are, anything else as JSON. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A credential's metadata as an editable grid of field / value pairs (a small spreadsheet).
 * Values typed here are text; values from a sidecar that are not text are shown as JSON and
 * kept as they were unless edited.
 */
export function MetadataGrid({ owner, metadata, onChange }: { owner: string; metadata: Record<string, unknown>; onChange(next: Record<string, unknown>): void }) {
  const [newKey, setNewKey] = useState('');
  const t = useT();
  const entries = Object.entries(metadata);
  const rename = (from: string, to: string) => onChange(Object.fromEntries(entries.map(([k, v]) => (k === from ? [to, v] : [k, v]))));
  const add = () => {
    const key = newKey.trim();
    if (key === '' || Object.hasOwn(metadata, key)) return;
    onChange({ ...metadata, [key]: '' });
    setNewKey('');
  };
  return (
    <table className="metadata-grid" aria-label={t('staging.metadata.table', { owner })}>
      <thead>
        <tr>
          <th scope="col">{t('staging.metadata.field')}</th>
          <th scope="col">{t('staging.metadata.value')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('staging.metadata.remove')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([key, value]) => (
          <tr key={key}>
            <td>
              <input aria-label={t('staging.metadata.fieldName', { key })} defaultValue={key} onBlur={(e) => e.target.value.trim() && e.target.value !== key && rename(key, e.target.value.trim())} />
            </td>
            <td>
              <input aria-label={t('staging.metadata.valueOf', { key })} value={asText(value)} onChange={(e) => onChange({ ...metadata, [key]: e.target.value })} />
            </td>
            <td>
              <button type="button" className="link-button" aria-label={t('staging.metadata.removeField', { key })} onClick={() => onChange(Object.fromEntries(entries.filter(([k]) => k !== key)))}>
                ×
              </button>
            </td>
          </tr>
        ))}
        <tr>
          <td colSpan={2}>
            <input
              aria-label={t('staging.metadata.newField', { owner })}
              placeholder={t('staging.metadata.newFieldPlaceholder')}
              value={newKey}
              onChange={(e) => setNewKey(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
          </td>
          <td>
            <button type="button" onClick={add} disabled={newKey.trim() === ''}>
              {t('staging.metadata.addField')}
            </button>
          </td>
        </tr>
      </tbody>
    </table>
  );
}
