/** "50,000 credentials", "1 credential". */
export function credentials(count: number): string {
  return `${count.toLocaleString('en-US')} credential${count === 1 ? '' : 's'}`;
}

/** Over this many records, a bulk change asks once more, naming the count. */
export const CONFIRM_OVER = 100;
