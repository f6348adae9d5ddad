/** Chain accounts from private keys (secp256k1), as viem makes them. */
import { secp256k1 } from '@noble/curves/secp256k1';

// The base point's multiples are precomputed on first use, once per process. A command here
// signs a transaction or two per job and derives an address per Partner, so the precomputation
// is most of its time on the curve: a 6-bit window precomputes a third of the default 8-bit
// window's points, and a signature after it costs about the same. viem uses this same copy of
// the curve (one version in the lockfile, bundled once). Figures: docs/benchmarks.md.
secp256k1.ProjectivePoint.BASE._setWindowSize(6);

export { generatePrivateKey, privateKeyToAccount as accountFromPrivateKey } from 'viem/accounts';
