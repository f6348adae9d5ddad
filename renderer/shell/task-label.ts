import type { TaskInfo } from '../../common/tasks.js';
import { t } from '../i18n/i18n-store.js';

/**
 * A task's name in the window's language (also its progressbar's accessible name): from the
 * code main sends with it, else main's English label as it came.
 *
 * @example taskLabel(task) // 'Tags zu 50.000 Nachweisen hinzufügen'
 */
export function taskLabel(task: Pick<TaskInfo, 'label' | 'label_code'>): string {
  const code = task.label_code;
  if (!code) return task.label;
  const status = code.id === 'exportJobs' ? t('task.jobStatus', { status: code.name ?? 'none' }) : '';
  return t('task.label', { id: code.id, count: code.count ?? 0, name: code.name ?? task.label, format: code.format ?? 'csv', status });
}
