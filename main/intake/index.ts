/**
 * File intake, the one way from a file to a credential, shared by `issue`, the watched folders
 * (`watch` and the app), the app's drag-in and CSV create, and the REST upload: files read and
 * hashed concurrently with bounded memory (one read serves hash, MIME sniff and upload),
 * credentials created and scheduled many per write transaction on the embedded engine
 * (concurrent single requests on a remote service), proofs written per job, and one journal
 * (docs/intake.md).
 */
export { ByteGate, chunks, mapOrdered } from './pool.js';
export { HELD_BYTES, READ_CONCURRENCY, readForIntake, type IntakeRead } from './read-for-intake.js';
export { INTAKE_BATCH, IntakeSender, intakeSenderFor } from './sender.js';
export { certificatesOfJob, credentialTexts, credentialsSince, proofTexts } from './job-proofs.js';
export { writeRound } from './proof-round.js';
export { FolderIntake } from './folder-intake.js';
export type { FolderIntakeEvent, FolderIntakeOptions, WatchFolderOptions } from './types.js';
export { Journal, JOURNAL_FILE, newFileRow, remoteJournalFile, FolderBusyError, type FileRow, type FileState } from './journal.js';
export { resumeOlderIssueRun } from './older-issue-journal.js';
export { FOLDER_FAULT_ENV } from './fault-points.js';
export { DEFAULT_PROOFS_DIR, vcPathOf } from './names.js';
export { formatProgress } from './progress.js';
export { isDiskFullAt, fullPath } from './disk-full.js';
