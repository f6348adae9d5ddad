/**
 * Amounts of wei as decimal text, without viem: the chain errors and the jobs list use it, and
 * both are loaded by commands (verify --offline, partner list) that must not load the chain library.
 */

/** `value` divided by 10^decimals as a decimal string without trailing zeros: (1500000000n, 9) → "1.5". */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Wei as gwei: 1500000000n → "1.5". */
export function formatGweiText(wei: bigint): string {
  return formatUnits(wei, 9);
}

/** Wei as whole coins of 18 decimals (ether and most EVM chains' native coins): 10n ** 15n → "0.001". */
export function formatEtherText(wei: bigint): string {
  return formatUnits(wei, 18);
}
