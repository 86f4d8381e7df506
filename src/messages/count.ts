/** "1 branch", "2 branches": a count and its noun, singular only for exactly one. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
