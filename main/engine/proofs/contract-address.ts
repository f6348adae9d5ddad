/**
 * viem's getContractAddress alone, for the verification step that imports it on demand: a
 * dynamic import of 'viem' itself would make a bundle keep, and load, every export of viem.
 */
export { getContractAddress } from 'viem';
