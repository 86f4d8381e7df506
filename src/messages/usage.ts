/** Sentences for command-line input the user got wrong: one line each, naming the fix. */
export const usageMessages = {
  duplicateAgent: (id: string, first: string, second: string) =>
    `--agent ${id} is given twice (${first} and ${second}); give each agent a distinct NAME`,
};
