/** The watched-folder ingester (docs/ingest.md). */
export { Ingester, type FailedFile, type IngestEvent, type IngestProgress, type IngesterOptions, type WatchFolderOptions } from './ingester.js';
export { Journal, JOURNAL_FILE, newFileRow, remoteJournalFile, FILE_STATES, FolderBusyError, type FileRow, type FileState } from './journal.js';
export { OLDER_ISSUE_JOURNAL_FILE, resumeOlderIssueRun } from './older-issue-journal.js';
export { INGEST_FAULT_ENV, type IngestFaultPoint } from './fault-points.js';
export { DONE_DIR, FAILED_DIR, DUPLICATE_DIR, DEFAULT_PROOFS_DIR, MANIFEST_FILE } from './names.js';
export { formatProgress } from './progress.js';
export { isDiskFull, isDiskFullAt, fullPath } from './disk-full.js';
