import { describe, expect, it } from 'vitest';
import { readableTitle } from './readable-title.js';

describe('readableTitle', () => {
  it('drops the extension, turns separators into spaces and capitalises the first letter', () => {
    expect(readableTitle('diploma-0000.pdf')).toBe('Diploma 0000');
    expect(readableTitle('bob_smith--final.PDF')).toBe('Bob smith final');
    expect(readableTitle('transcript.2026.spring.pdf')).toBe('Transcript 2026 spring');
  });

  it('takes the name from a relative path, splits camelCase and keeps capitals as written', () => {
    expect(readableTitle('msc/cohort-2/aliceMartin.pdf')).toBe('Alice Martin');
    expect(readableTitle('BSc_MIT-diploma.pdf')).toBe('BSc MIT diploma');
    expect(readableTitle('école-été.pdf')).toBe('École été');
  });

  it('keeps a name that has no extension, and one with no words before its extension', () => {
    expect(readableTitle('README')).toBe('README');
    expect(readableTitle('---.pdf')).toBe('---.pdf');
  });
});
