import { describe, expect, it } from 'vitest';
import { pageQuery, subcommand } from './args.js';
import { UsageError } from './cli-error.js';

describe('subcommand', () => {
  const actions = ['list', 'show'] as const;

  it('returns a known action', () => {
    expect(subcommand('jobs', 'show', actions, 'USAGE')).toBe('show');
  });

  it('says a missing action, the actions it takes and the usage', () => {
    const call = () => subcommand('jobs', undefined, actions, 'USAGE');
    expect(call).toThrow(UsageError);
    expect(call).toThrow('Missing jobs command: jobs takes list | show\nUSAGE');
  });

  it('quotes an unknown action', () => {
    expect(() => subcommand('certificate', 'lst', actions, 'USAGE')).toThrow('Unknown certificate command "lst": certificate takes list | show\nUSAGE');
  });
});

describe('pageQuery', () => {
  it('maps --sort, --desc, --page and --per-page onto the list query', () => {
    expect(pageQuery({ sort: 'title', desc: true, page: '2', 'per-page': '50' })).toEqual({ sort_by: 'title', order: 'desc', page: '2', per_page: '50' });
  });

  it('sorts ascending unless --desc', () => {
    expect(pageQuery({})).toEqual({ sort_by: undefined, order: 'asc', page: undefined, per_page: undefined });
  });
});
