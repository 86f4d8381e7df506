/** Sentences for command-line input the user got wrong: one line each, naming the fix. */
export const usageMessages = {
  duplicateAgent: (id: string, first: string, second: string) => `--agent ${id} is given twice (${first} and ${second}); give each agent a distinct NAME`,
  radarOutDirMissing: (file: string, dir: string) => `--out ${file}: the folder ${dir} does not exist; create it or pick another path`,
  radarOutUnwritable: (file: string, reason: string) => `--out ${file} cannot be written: ${reason}`,
};
