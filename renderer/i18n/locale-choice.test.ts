import { describe, expect, it } from 'vitest';
import { localeDirection, parseLanguageChoice, pickLocale } from './locale-choice.js';

describe('which language the window speaks', () => {
  it('follows the OS language in Electron, over the browser languages', () => {
    expect(pickLocale('system', 'de-DE', ['en-US'])).toBe('de');
    expect(pickLocale('system', 'en-GB', ['de'])).toBe('en');
  });

  it('takes the first browser language it has in the browser bridge', () => {
    expect(pickLocale('system', null, ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLocale('system', null, ['fr-FR'])).toBe('en');
    expect(pickLocale('system', null, [])).toBe('en');
    expect(pickLocale('system', null, ['en-XA'])).toBe('en-XA');
  });

  it('lets the Settings choice override both', () => {
    expect(pickLocale('en', 'de-DE', ['de'])).toBe('en');
    expect(pickLocale('de', 'en-US', ['en'])).toBe('de');
  });

  it('reads an unknown stored choice as following the system', () => {
    expect(parseLanguageChoice('de')).toBe('de');
    expect(parseLanguageChoice('klingon')).toBe('system');
    expect(parseLanguageChoice(null)).toBe('system');
  });

  it('writes Arabic and Hebrew right to left', () => {
    expect(localeDirection('ar-EG')).toBe('rtl');
    expect(localeDirection('he')).toBe('rtl');
    expect(localeDirection('de')).toBe('ltr');
  });
});
