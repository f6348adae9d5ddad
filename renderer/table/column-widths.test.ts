import { describe, expect, it } from 'vitest';
import { tableMinRem, tableMinWidth, trackMinRem, trackPx } from './column-widths.js';

describe('table column widths', () => {
  it('reads the smallest width of fixed and minmax tracks; fractions alone have none', () => {
    expect(trackMinRem('8rem')).toBe(8);
    expect(trackMinRem('9.5rem')).toBe(9.5);
    expect(trackMinRem('minmax(12rem, 3fr)')).toBe(12);
    expect(trackMinRem('1fr')).toBe(0);
    expect(trackMinRem('auto')).toBe(0);
  });

  it('sums a table\'s tracks, so it scrolls sideways below that width rather than cutting columns off', () => {
    expect(tableMinRem(['7.5rem', '6rem', 'minmax(6rem, 1fr)', '9.5rem'])).toBe(29);
  });
});

describe('table minimum width with resized columns', () => {
  it('adds the pixel widths of resized columns to the rem widths of the others', () => {
    expect(trackPx('160px')).toBe(160);
    expect(trackPx('8rem')).toBe(0);
    expect(tableMinWidth(['minmax(12rem, 3fr)', '200px', '8rem'])).toBe('calc(20rem + 200px)');
    expect(tableMinWidth(['minmax(12rem, 3fr)', '8rem'])).toBe('20rem');
  });
});
