/** Chain accounts from private keys (secp256k1), as viem makes them. */
export { generatePrivateKey, privateKeyToAccount as accountFromPrivateKey } from 'viem/accounts';
export type { PrivateKeyAccount } from 'viem/accounts';
