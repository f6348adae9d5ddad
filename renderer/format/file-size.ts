/**
 * A file's size as a person reads it: bytes below 1 KB (`812 bytes`, never `0.0 KB`), then KB,
 * MB and GB with one decimal below 10 (`4.2 KB`, `1.3 MB`) and none above (`312 KB`).
 * The amount is a number for the catalogue's `{amount, number}`, so the locale's formatter
 * writes it (`4,2 KB` in German).
 */
export interface FileSize {
  unit: 'bytes' | 'kb' | 'mb' | 'gb';
  amount: number;
}

const UNITS = ['kb', 'mb', 'gb'] as const;

export function fileSize(bytes: number): FileSize {
  if (bytes < 1024) return { unit: 'bytes', amount: bytes };
  let amount = bytes / 1024;
  let unit = 0;
  while (amount >= 1024 && unit < UNITS.length - 1) {
    amount /= 1024;
    unit++;
  }
  const rounded = amount < 10 ? Math.round(amount * 10) / 10 : Math.round(amount);
  // 1023.7 KB rounds to 1024 KB: say 1 MB instead.
  if (rounded >= 1024 && unit < UNITS.length - 1) return { unit: UNITS[unit + 1]!, amount: 1 };
  return { unit: UNITS[unit]!, amount: rounded };
}
