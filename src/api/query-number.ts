/**
 * A whole number written in a query string, in decimal digits only, or null. `Number()` alone reads
 * "0x10" as 16, "1e1" as 10 and " 5", "+5" or "" as numbers too: a query that says one thing to a person
 * and another to the service. Leading zeros are harmless ("007" is 7); more than 15 digits could lose
 * precision, and no count or seed here needs them.
 */
export function decimalInteger(text: string): number | null {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : null;
}
