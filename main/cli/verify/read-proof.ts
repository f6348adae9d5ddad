// The reader lives beside the verifier (worker threads of verify-many read proofs too).
export { MAX_PROOF_FILE_BYTES, parseProofText, readProofFile } from '../../engine/proofs/verify-read-proof.js';
