/**
 * One CSV field as RFC 4180 writes it: quoted when it holds a comma, quote or line break. Text
 * that a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, tab or CR) is prefixed
 * with `'`, so an exported list can never execute anything when opened.
 */
export function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
