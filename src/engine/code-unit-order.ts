/**
 * The one string order of reports and ties: UTF-16 code units (what `<` compares), the same on
 * every machine. `localeCompare` depends on the ICU data and locale of the Node that runs it, so two
 * agents could list the same peers in different orders.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
