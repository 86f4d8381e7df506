export const intentMessages = {
  needPaths: 'airspace-hooks intent add: name the files you are about to touch',
  list: (action: string, paths: readonly string[]) =>
    paths.length === 0
      ? action === 'clear' ? 'intent cleared' : 'no declared intent'
      : `${action === 'clear' ? 'intent left' : 'declared intent'} (${paths.length}):\n${paths.map((p) => `  ${p}`).join('\n')}`,
};
