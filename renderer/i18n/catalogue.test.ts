import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import de from './messages/de.json';
import en from './messages/en.json';
import { ERROR_IDS } from '../../common/errors.js';
import { pseudoMessages } from './pseudo-locale.js';

/** Every argument of a message with its kind (`count:plural`, `name:argument`, …), sorted. */
function argumentsOf(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      found.add(`${element.value}:${TYPE[element.type]}`);
      if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) walk(option.value);
      if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(parse(message));
  return [...found].sort();
}

describe('the string catalogue', () => {
  it("words every error id of the service in a sentence of its own (the headline of an error in another language than English)", () => {
    expect(ERROR_IDS.filter((id) => !(`error.headline.${id}` in en))).toEqual([]);
  });

  it('has the same ids in English and German', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('gives each German message the same ICU arguments as its English one', () => {
    const english = en as Record<string, string>;
    const german = de as Record<string, string>;
    const differ = Object.keys(english).filter((id) => id in german && argumentsOf(english[id]!).join() !== argumentsOf(german[id]!).join());
    expect(differ).toEqual([]);
  });

  it('leaves no German message empty or the same as its English one but for names and numbers', () => {
    const english = en as Record<string, string>;
    const german = de as Record<string, string>;
    const same = Object.keys(german).filter((id) => german[id]!.trim() === '' || (german[id] === english[id] && /[a-z]{3}/.test(german[id]!.replace(/\{[^}]*\}/g, ''))));
    // Words German takes over unchanged (names, and terms such as `Partner`).
    const unchanged = same.filter((id) => !SAME_IN_GERMAN.has(id));
    expect(unchanged).toEqual([]);
  });

  it('makes a pseudo-locale of every English message, bracketed and accented', () => {
    const pseudo = pseudoMessages({ 'x.save': 'Save {count, plural, one {# file} other {# files}}' });
    const text = JSON.stringify(pseudo['x.save']);
    expect(text.startsWith('[{"type":0,"value":"["}')).toBe(true);
    expect(text).toContain('Šáṽé');
    expect(text).toContain('ƒíļéš');
    expect(Object.keys(pseudoMessages(en))).toEqual(Object.keys(en));
  });
});

/** Ids whose German text is rightly the English one (product names, loan words). */
const SAME_IN_GERMAN = new Set<string>(['shell.status.partner', 'shell.status.partnerName', 'shell.status.label', 'shell.brand', 'settings.language.system', 'settings.language.en', 'settings.language.de', 'settings.tab.partner', 'settings.tab.engines', 'records.column.tags', 'records.tags.tag', 'records.tags.tags', 'records.schedule.engines', 'records.filter.tagSuggestion', 'common.number', 'jobs.column.status', 'jobs.column.engine', 'jobs.column.tags', 'jobs.detail.status', 'jobs.detail.tags', 'command.hint', 'commands.about.version', 'staging.column.tags', 'detail.tags', 'detail.column.engine', 'detail.step', 'watch.form.engine', 'settings.keys.column.engine', 'settings.engines.table', 'settings.engines.column.engine', 'settings.engines.column.explorer', 'settings.engines.idPlaceholder', 'settings.engines.rpcPlaceholder', 'settings.engines.explorerTxPlaceholder', 'settings.engines.explorerAddressPlaceholder', 'settings.remote.baseUrlPlaceholder', 'staging.row.size', 'listExport.format', 'exportProofs.format', 'csvImport.column.tags', 'verify.column.original', 'verify.detail.engine', 'verify.endpoints.engine', 'verify.endpoints.enginePlaceholder', 'verify.endpoints.rpcPlaceholder', 'shell.windowTitle', 'keys.alt', 'native.filter.csv']);
