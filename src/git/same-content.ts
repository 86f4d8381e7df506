import { isObjectName, objectInfo } from './read-objects.js';

export interface ContentQuestion {
  readonly a: string;
  readonly b: string;
  readonly path: string;
}

/**
 * For each question, whether `path` holds one object in both commits: the same content, which
 * git's three-way merge takes cleanly. Asked in one request of the run's object session; a path
 * that cannot be asked (it came from a beacon) or is missing on a side is never "the same".
 */
export async function sameContent(cwd: string, questions: readonly ContentQuestion[]): Promise<boolean[]> {
  const names = questions.flatMap(({ a, b, path }) => [`${a}:${path}`, `${b}:${path}`]);
  if (names.length === 0) return [];
  const infos = await objectInfo(cwd, names);
  return questions.map((_, i) => {
    const [x, y] = [infos[2 * i], infos[2 * i + 1]];
    return isObjectName(names[2 * i]!) && x != null && y != null && x.type === 'blob' && x.sha === y.sha;
  });
}
