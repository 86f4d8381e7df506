import { describe, expect, it } from 'vitest';
import { BatchCommandReader, parseObjectHeader, type ObjectAnswer, type ObjectCommand } from '../../../src/git/batch-command-output.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(64);

/** Reads `stream` cut into chunks at `cuts`; returns the answers and whether the reader accepted it. */
function read(
  commands: ObjectCommand[],
  stream: Buffer,
  cuts: number[],
  keep: (size: number) => boolean = () => true,
): { answers: ObjectAnswer[]; ok: boolean } {
  const answers: ObjectAnswer[] = [];
  const reader = new BatchCommandReader({ next: () => commands[answers.length], keep: (info) => keep(info.size), answer: (a) => answers.push(a) });
  let ok = true;
  let at = 0;
  for (const cut of [...cuts, stream.length]) {
    ok = reader.push(stream.subarray(at, cut)) && ok;
    at = cut;
  }
  return { answers, ok };
}

describe('cat-file --batch-command answers', () => {
  const content = Buffer.from('line one\nline\0two\n\nA 40 blob 3\n');
  const stream = Buffer.concat([
    Buffer.from(`${A} blob ${content.length}\n`),
    content,
    Buffer.from(`\nnope:file with spaces missing\n${B} tree 12\n${A}^{commit} missing\n${A} blob 0\n\n`),
  ]);
  const commands: ObjectCommand[] = ['contents', 'contents', 'info', 'info', 'contents'];

  it('takes exactly the announced bytes, whatever they hold, at every chunk boundary', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      for (const second of [cut, Math.min(stream.length, cut + 1), Math.min(stream.length, cut + 7)]) {
        const { answers, ok } = read(commands, stream, [cut, second]);
        expect(ok).toBe(true);
        expect(answers).toEqual([
          { sha: A, type: 'blob', size: content.length, content },
          null,
          { sha: B, type: 'tree', size: 12 },
          null,
          { sha: A, type: 'blob', size: 0, content: Buffer.alloc(0) },
        ]);
      }
    }
  });

  it('skips a content it was told not to keep, and stays in step', () => {
    const { answers, ok } = read(commands, stream, [5], (size) => size === 0);
    expect(ok).toBe(true);
    expect(answers[0]).toEqual({ sha: A, type: 'blob', size: content.length });
    expect(answers[2]).toEqual({ sha: B, type: 'tree', size: 12 });
    expect(answers).toHaveLength(5);
  });

  it('refuses an answer nobody asked for', () => {
    expect(read(['info'], Buffer.from(`${A} blob 1\n${A} blob 1\n`), []).ok).toBe(false);
  });

  it('parses headers of both hash sizes and nothing else', () => {
    expect(parseObjectHeader(`${B} commit 250`)).toEqual({ sha: B, type: 'commit', size: 250 });
    expect(parseObjectHeader(`${A} missing`)).toBeNull();
    expect(parseObjectHeader(`${A} ambiguous`)).toBeNull();
    expect(parseObjectHeader(`${A.slice(1)} blob 3`)).toBeNull();
  });
});
