import { describe, expect, it } from 'vitest';
import { filterOptions } from './palette-filter.js';

const option = (label: string, context: string, disabled = false) => ({ label, context, disabled });
const OPTIONS = [
  option('Add tags', 'Edit', true),
  option('Find records', 'Edit'),
  option('Records', 'View'),
  option('Verify', 'View'),
  option('Certificate of Ada', 'record'),
  option('Schedule', 'Edit', true),
];
const labels = (query: string) => filterOptions(OPTIONS, query).map((o) => o.label);

describe('the command palette filter', () => {
  it('keeps every option for an empty query, in the table order but what can run first', () => {
    expect(labels('')).toEqual(['Find records', 'Records', 'Verify', 'Certificate of Ada', 'Add tags', 'Schedule']);
  });

  it('matches every word typed, in any order and case, in the label or its menu', () => {
    expect(labels('VERIFY')).toEqual(['Verify']);
    expect(labels('records view')).toEqual(['Records']);
    expect(labels('edit tags')).toEqual(['Add tags']);
    expect(labels('ada')).toEqual(['Certificate of Ada']);
    expect(labels('nothing like it')).toEqual([]);
  });

  it('puts labels starting with the first word first', () => {
    expect(labels('rec')).toEqual(['Records', 'Find records', 'Certificate of Ada']);
  });
});
