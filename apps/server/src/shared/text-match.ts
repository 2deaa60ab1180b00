/** `%value%` for ILIKE, the wildcards in the value itself taken literally. */
export function containing(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
