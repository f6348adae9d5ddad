import { useI18nStore } from '../i18n/i18n-store.js';
import { parseLanguageChoice } from '../i18n/locale-choice.js';
import { useT } from '../i18n/use-t.js';

/** Settings › Language: follow the system (the OS in Electron, the browser's languages in the bridge), or one language. */
export function LanguageSelect() {
  const t = useT();
  const choice = useI18nStore((s) => s.choice);
  const choose = useI18nStore((s) => s.choose);
  return (
    <label className="settings-language">
      {t('settings.language.label')}{' '}
      <select value={choice} onChange={(e) => choose(parseLanguageChoice(e.target.value))}>
        <option value="system">{t('settings.language.system')}</option>
        <option value="en" lang="en">{t('settings.language.en')}</option>
        <option value="de" lang="de">{t('settings.language.de')}</option>
      </select>
    </label>
  );
}
