import { describe, expect, it } from 'vitest';
import { errorIdOf as idOf } from '../../test/support/error-id.js';
import { IPC_ARGUMENT_VALIDATORS, IPC_CHANNELS } from '../ipc-contract.js';
import { WATCH_FOLDERS_IPC } from './watch-folders.js';

describe('the watch folders slice', () => {
  const v = IPC_ARGUMENT_VALIDATORS;
  it('is merged into the contract', () => {
    for (const channel of Object.keys(WATCH_FOLDERS_IPC)) expect(IPC_CHANNELS).toContain(channel);
  });

  it('refuses bad folders with the spec ids, and takes a good one with blank optional fields dropped', () => {
    expect(idOf(() => v['watchFolders:add']([{}]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:add']([{ path: '   ' }]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:add']([{ path: '/in', tags: ['a b'] }]))).toBe('invalid_tag');
    expect(idOf(() => v['watchFolders:add']([{ path: '/in', tags: ['term-1', 'term-1'] }]))).toBe('duplicated_tags');
    expect(idOf(() => v['watchFolders:add']([{ path: '/in', metadata: [1] }]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:add']([{ path: '/in', recursive: 'yes' }]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:add']([{ path: '/in', script: 'rm -rf' }]))).toBe('invalid_value');
    expect(v['watchFolders:add']([{ path: ' /in ', outDir: '  ', tags: ['cs2026'], metadata: { course: 'CS' }, recursive: false }])).toEqual([
      { path: '/in', tags: ['cs2026'], metadata: { course: 'CS' }, recursive: false },
    ]);
  });

  it('checks ids and retry arguments', () => {
    expect(idOf(() => v['watchFolders:pause']([]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:remove']([7]))).toBe('invalid_value');
    expect(idOf(() => v['watchFolders:retry'](['id', { path: 'a.pdf' }]))).toBe('invalid_value');
    expect(v['watchFolders:retry'](['id', { path: 'a.pdf', failedPath: null }])).toEqual(['id', { path: 'a.pdf', failedPath: null }]);
    expect(idOf(() => v['watchFolders:list'](['x']))).toBe('invalid_value');
  });
});
