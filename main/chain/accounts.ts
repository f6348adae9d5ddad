/** Chain accounts from private keys (secp256k1), as viem makes them. */
import { secp256k1 } from '@noble/curves/secp256k1';

// The base point's multiples are precomputed on first use, once per process: with noble's
// default window of 8 bits that is 4,096 points, most of a short command's time on the curve,
// which here signs a transaction or two per job and derives an address per Partner. A 6-bit
// window precomputes 1,376: the first use takes half the CPU (41 → 20 ms), and each signature
// after it about a millisecond either way. viem uses this same copy of the curve (one version in
// the lockfile, bundled once).
secp256k1.ProjectivePoint.BASE._setWindowSize(6);

export { generatePrivateKey, privateKeyToAccount as accountFromPrivateKey } from 'viem/accounts';
export type { PrivateKeyAccount } from 'viem/accounts';
