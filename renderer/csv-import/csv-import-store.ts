import { create } from 'zustand';
import type { CsvImportResult, CsvMapping, CsvPreview } from '../../common/ipc/csv-import.js';
import type { TaskError, TaskInfo } from '../../common/tasks.js';
import { toServiceError } from '../ipc-error.js';
import { onAppEvent } from '../shell/app-events.js';
import { pathsOfFiles } from '../staging/file-intake.js';
import { t } from '../i18n/i18n-store.js';

/** What a column is used as in the mapping. */
export type ColumnUse = 'title' | 'key' | 'tags' | 'expiry_date' | 'link' | 'metadata' | 'ignore';
const SINGLE: Exclude<ColumnUse, 'metadata' | 'ignore'>[] = ['title', 'key', 'tags', 'expiry_date', 'link'];

/** How a mapping uses one column. */
export function columnUseOf(mapping: CsvMapping, column: string): ColumnUse {
  for (const field of SINGLE) if (mapping[field] === column) return field;
  return mapping.metadata.some((m) => m.column === column) ? 'metadata' : 'ignore';
}

/** The mapping with one column's use changed (a field used by another column moves here). */
export function withColumnUse(mapping: CsvMapping, column: string, use: ColumnUse): CsvMapping {
  const next: CsvMapping = { ...mapping, metadata: mapping.metadata.filter((m) => m.column !== column) };
  for (const field of SINGLE) if (next[field] === column) next[field] = null;
  if (use === 'metadata') next.metadata = [...next.metadata, { column, key: column.replace(/^meta\./i, '') }];
  else if (use !== 'ignore') next[use] = column;
  return next;
}

export interface CsvImportStore {
  open: boolean;
  path: string | null;
  preview: CsvPreview | null;
  mapping: CsvMapping | null;
  checking: boolean;
  task: TaskInfo<CsvImportResult> | null;
  result: CsvImportResult | null;
  error: TaskError | null;
  /** Reads a CSV; `keepResult` keeps the last result (its refused rows) to retry them from the corrected file. */
  choose(file: File, keepResult?: boolean): Promise<void>;
  setUse(column: string, use: ColumnUse): Promise<void>;
  run(engine: string | null, rows?: number[] | null): Promise<void>;
  retryRefused(engine: string | null): Promise<void>;
  cancel(): Promise<void>;
  close(): void;
}

/** CSV import: the file, its mapping and preview, the import task and its result. */
export const useCsvImportStore = create<CsvImportStore>()((set, get) => {
  const fail = (error: unknown) => {
    const { id, message } = toServiceError(error);
    set({ error: { id, message }, checking: false });
  };
  const check = async (path: string, mapping: CsvMapping | null) => {
    set({ checking: true, error: null });
    try {
      const preview = await window.proofdesk.csvImportPreview(path, mapping);
      set({ preview, mapping: preview.mapping, checking: false });
    } catch (error) {
      fail(error);
    }
  };
  const finish = async (task: TaskInfo) => {
    // A cancelled task carries no result: ask what was created and refused before it stopped.
    const result = (task.result as CsvImportResult | undefined) ?? (await window.proofdesk.csvImportOutcome(task.id).catch(() => null));
    set({ task: task as TaskInfo<CsvImportResult>, result, error: task.error ?? null });
    // The file is read again: what is left to fix shows in the preview.
    const { path, mapping } = get();
    if (path) void check(path, mapping);
  };
  onAppEvent('task', ({ task }) => {
    const current = get().task;
    if (!current || current.id !== task.id) return;
    if (task.state === 'running') set({ task: task as TaskInfo<CsvImportResult> });
    else void finish(task);
  });

  return {
    open: false,
    path: null,
    preview: null,
    mapping: null,
    checking: false,
    task: null,
    result: null,
    error: null,
    async choose(file, keepResult = false) {
      set((s) => ({ open: true, path: null, preview: null, mapping: keepResult ? s.mapping : null, result: keepResult ? s.result : null, task: null, error: null, checking: true }));
      try {
        const [path] = await pathsOfFiles([file]);
        if (!path) throw new Error(t('csvImport.unreadable'));
        set({ path });
        // The corrected file keeps the mapping chosen for the first one (when its columns allow).
        const kept = get().mapping;
        await check(path, kept);
        if (get().error && kept) await check(path, null);
      } catch (error) {
        fail(error);
      }
    },
    async setUse(column, use) {
      const { path, mapping } = get();
      if (!path || !mapping) return;
      await check(path, withColumnUse(mapping, column, use));
    },
    async run(engine, rows = null) {
      const { path, mapping } = get();
      if (!path || !mapping) return;
      set({ error: null, result: null });
      try {
        const task = await window.proofdesk.csvImportRun(path, mapping, { engine, rows });
        set({ task });
        const latest = task.state === 'running' ? (await window.proofdesk.tasksList()).find((t) => t.id === task.id) : task;
        if (latest && latest.state !== 'running' && get().task?.state === 'running') await finish(latest);
      } catch (error) {
        fail(error);
      }
    },
    async retryRefused(engine) {
      const result = get().result;
      const refused = [...(result?.refused ?? []), ...(result?.not_created ?? [])].map((r) => r.row).filter((r) => r > 0);
      if (refused.length > 0) await get().run(engine, refused);
    },
    async cancel() {
      const task = get().task;
      if (task?.state === 'running') await window.proofdesk.tasksCancel(task.id).catch(() => undefined);
    },
    close: () => set({ open: false }),
  };
});
