/**
 * File intake, shared by `issue`, the watched folder, the app's drag-in and the REST upload:
 * files read and hashed concurrently with bounded memory (one read serves hash, MIME sniff and
 * upload), credentials created and scheduled many per write transaction on the embedded engine
 * (concurrent single requests on a remote service), and proofs written per job.
 */
export { ByteGate, chunks, mapOrdered } from './pool.js';
export { ByteBudget, readForIntake, type IntakeRead } from './read-for-intake.js';
export { INTAKE_BATCH, IntakeSender, intakeSenderFor, type IntakeOutcome, type IntakeSenderOptions } from './sender.js';
export { certificatesOfJob, credentialsOfJob } from './job-proofs.js';
export { tempNameOf, writeRound, type RoundStep } from './proof-round.js';
