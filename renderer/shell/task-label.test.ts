import { afterEach, describe, expect, it } from 'vitest';
import type { TaskLabelCode } from '../../common/tasks.js';
import { useI18nStore } from '../i18n/i18n-store.js';
import { taskLabel } from './task-label.js';

const label = (code: TaskLabelCode) => taskLabel({ label: 'as main wrote it', label_code: code });

afterEach(() => useI18nStore.getState().choose('en'));

describe('a task’s name', () => {
  it('is in English what main calls the task (the progressbars’ accessible names)', () => {
    useI18nStore.getState().choose('en');
    expect(label({ id: 'tagsAdd', count: 50_000 })).toBe('Adding tags to 50,000 credentials');
    expect(label({ id: 'tagRemove', count: 1, name: 'class-2026' })).toBe('Removing tag class-2026 from 1 credential');
    expect(label({ id: 'schedule', count: 3, name: 'local, sepolia' })).toBe('Scheduling 3 credentials on local, sepolia');
    expect(label({ id: 'createSchedule', count: 1000 })).toBe('Creating and scheduling 1,000 credentials');
    expect(label({ id: 'exportJobs', count: 5, format: 'csv', name: 'failed' })).toBe('Exporting 5 failed jobs to CSV');
    expect(label({ id: 'exportJobs', count: 1, format: 'xlsx' })).toBe('Exporting 1 job to an Excel workbook');
    expect(label({ id: 'verify' })).toBe('Verifying proof files');
    expect(taskLabel({ label: 'Something main did' })).toBe('Something main did');
  });

  it('is in German when the window speaks German, with German numbers', () => {
    useI18nStore.getState().choose('de');
    expect(label({ id: 'tagsAdd', count: 50_000 })).toBe('Tags zu 50.000 Nachweisen hinzufügen');
    expect(label({ id: 'exportJobs', count: 5, format: 'xlsx', name: 'failed' })).toBe('5 Aufträge (fehlgeschlagen) als Excel-Arbeitsmappe exportieren');
    expect(label({ id: 'csvImport', count: 1, name: 'noten.csv' })).toBe('1 Nachweis aus noten.csv importieren');
  });
});
