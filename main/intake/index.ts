/**
 * File intake, the one way from a file to a credential, shared by `issue`, the watched folders
 * (`watch` and the app), the app's drag-in and CSV create, and the REST upload: files read and
 * hashed concurrently with bounded memory (one read serves hash, MIME sniff and upload),
 * credentials created and scheduled many per write transaction on the embedded engine
 * (concurrent single requests on a remote service), proofs written per job, and one journal
 * (docs/intake.md).
 */
export { ByteGate, chunks, mapOrdered } from './pool.js';
export { readForIntake, type IntakeRead } from './read-for-intake.js';
export { INTAKE_BATCH, IntakeSender, intakeSenderFor, type IntakeOutcome, type IntakeSenderOptions } from './sender.js';
export { certificatesOfJob, credentialsOfJob } from './job-proofs.js';
export { tempNameOf, writeRound, type RoundStep } from './proof-round.js';
export { FolderIntake, type FailedFile, type FolderIntakeEvent, type FolderIntakeProgress, type FolderIntakeOptions, type WatchFolderOptions } from './folder-intake.js';
export { Journal, JOURNAL_FILE, newFileRow, remoteJournalFile, FILE_STATES, FolderBusyError, type FileRow, type FileState } from './journal.js';
export { OLDER_ISSUE_JOURNAL_FILE, resumeOlderIssueRun } from './older-issue-journal.js';
export { FOLDER_FAULT_ENV } from './fault-points.js';
export { DONE_DIR, FAILED_DIR, DUPLICATE_DIR, DEFAULT_PROOFS_DIR, MANIFEST_FILE } from './names.js';
export { formatProgress } from './progress.js';
export { isDiskFull, isDiskFullAt, fullPath } from './disk-full.js';
