/** Wording of configuration errors: one line, naming the file, the key and what was expected. */
export const configMessages = {
  unreadable: (path: string, reason: string) => `cannot read config ${path}: ${reason}`,
  invalidJson: (path: string, reason: string) => `config ${path} is not valid JSON: ${reason}`,
  invalidValue: (source: string, key: string, expected: string, received: string) =>
    `config ${source}: "${key}" must be ${expected} (got ${received})`,
};
