import { create } from 'zustand';
import type { CsvCellEdit, CsvImportResult, CsvMapping, CsvPreview } from '../../common/ipc/csv-import.js';
import type { TaskError, TaskInfo } from '../../common/tasks.js';
import { shownError } from '../ipc-error.js';
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
  /** The latest import's result. */
  result: CsvImportResult | null;
  /** Rows created by the imports of this file so far (never imported twice). */
  created: ReadonlySet<number>;
  /** Cells changed in the dialog, by `row` + NUL + column: sent with every check and the import. */
  edits: ReadonlyMap<string, CsvCellEdit>;
  errorsOnly: boolean;
  error: TaskError | null;
  /** Reads a CSV: a new file starts a new import (no edits, nothing created). */
  choose(file: File): Promise<void>;
  setUse(column: string, use: ColumnUse): Promise<void>;
  /** Changes a cell (in the dialog only) and checks the rows again with the import's own check. */
  editCell(row: number, column: string, value: string): Promise<void>;
  setErrorsOnly(on: boolean): void;
  /** Imports every row that passes and is not created yet. */
  run(engine: string | null): Promise<void>;
  cancel(): Promise<void>;
  close(): void;
}

/** CSV import: the file, its mapping, the cells fixed in the dialog, the preview, the import task and its result. */
export const useCsvImportStore = create<CsvImportStore>()((set, get) => {
  const fail = (error: unknown) => {
    set({ error: shownError(error), checking: false });
  };
  /** Numbers the checks: an answer to an older check (an earlier edit) is dropped. */
  let latest = 0;
  const check = async (path: string, mapping: CsvMapping | null) => {
    const mine = ++latest;
    set({ checking: true, error: null });
    try {
      const preview = await window.proofdesk.csvImportPreview(path, mapping, [...get().edits.values()]);
      if (mine === latest) set({ preview, mapping: preview.mapping, checking: false });
    } catch (error) {
      if (mine === latest) fail(error);
    }
  };
  const finish = async (task: TaskInfo) => {
    // A cancelled task carries no result: ask what was created and refused before it stopped.
    const result = (task.result as CsvImportResult | undefined) ?? (await window.proofdesk.csvImportOutcome(task.id).catch(() => null));
    const created = new Set(get().created);
    for (const c of result?.created ?? []) created.add(c.row);
    set({ task: task as TaskInfo<CsvImportResult>, result, created, error: task.error ?? null });
    // Checked again: what is left to fix shows in the table.
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
    created: new Set(),
    edits: new Map(),
    errorsOnly: false,
    error: null,
    async choose(file) {
      latest++;
      set({ open: true, path: null, preview: null, mapping: null, result: null, created: new Set(), edits: new Map(), errorsOnly: false, task: null, error: null, checking: true });
      try {
        const [path] = await pathsOfFiles([file]);
        if (!path) throw new Error(t('csvImport.unreadable'));
        set({ path });
        await check(path, null);
      } catch (error) {
        fail(error);
      }
    },
    async setUse(column, use) {
      const { path, mapping } = get();
      if (!path || !mapping) return;
      await check(path, withColumnUse(mapping, column, use));
    },
    async editCell(row, column, value) {
      const { path, mapping, edits } = get();
      if (!path || !mapping) return;
      const next = new Map(edits);
      next.set(`${row}\u0000${column}`, { row, column, value });
      set({ edits: next });
      await check(path, mapping);
    },
    setErrorsOnly: (on) => set({ errorsOnly: on }),
    async run(engine) {
      const { path, mapping, preview, created, edits } = get();
      if (!path || !mapping || !preview) return;
      set({ error: null });
      // Rows created by an earlier import of this file are left out: nothing is created twice.
      const rows = created.size === 0 ? null : Array.from({ length: preview.total_rows }, (_, i) => i + 1).filter((r) => !created.has(r));
      try {
        const task = await window.proofdesk.csvImportRun(path, mapping, { engine, rows, edits: [...edits.values()] });
        set({ task });
        const latestTask = task.state === 'running' ? (await window.proofdesk.tasksList()).find((t) => t.id === task.id) : task;
        if (latestTask && latestTask.state !== 'running' && get().task?.state === 'running') await finish(latestTask);
      } catch (error) {
        fail(error);
      }
    },
    async cancel() {
      const task = get().task;
      if (task?.state === 'running') await window.proofdesk.tasksCancel(task.id).catch(() => undefined);
    },
    close: () => set({ open: false }),
  };
});
