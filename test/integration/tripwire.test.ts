import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Tripwire } from '../../src/resident/tripwire.js';
import { removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * The folders the shell's answers rest on, watched (src/resident/tripwire.ts): a look for a change
 * that counts, none for a busy neighbour in the same folder, and the watch kept through a symlinked
 * file and a folder removed and made again. Real folders, real fs.watch.
 */
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) removeDir(dir);
});

function watched(files: string[], folders: string[] = []) {
  let looks = 0;
  let waiting: (() => void) | undefined;
  const tripwire = new Tripwire(
    () => {
      looks += 1;
      waiting?.();
    },
    () => {},
  );
  tripwire.add(files, folders);
  return {
    tripwire,
    looks: () => looks,
    /** Resolves at the next look (fails the test after 10 s). */
    nextLook: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no look')), 10_000);
        waiting = () => {
          clearTimeout(timer);
          waiting = undefined;
          resolve();
        };
      }),
  };
}

describe('the watched folders of the shell answers', () => {
  it('looks when a watched file is replaced, not when its neighbour in the folder is written', async () => {
    const home = tempDir('airspace-tripwire-');
    cleanup.push(home);
    writeFileSync(join(home, '.gitconfig'), '[user]\n');
    const w = watched([join(home, '.gitconfig')]);
    for (let i = 0; i < 20; i++) appendFileSync(join(home, '.chatty'), 'x\n');
    // fs.watch delivers within milliseconds: a look for the neighbour would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(w.looks()).toBe(0);
    // git's way: a lock file renamed over the config.
    const look = w.nextLook();
    writeFileSync(join(home, '.gitconfig.lock'), '[user]\n\tname = x\n');
    renameSync(join(home, '.gitconfig.lock'), join(home, '.gitconfig'));
    await look;
    expect(w.looks()).toBe(1);
    w.tripwire.close();
  });

  it('follows a symlinked file into its target folder', async () => {
    const home = tempDir('airspace-tripwire-link-');
    cleanup.push(home);
    mkdirSync(join(home, 'dots'));
    writeFileSync(join(home, 'dots', 'gitconfig'), '[user]\n');
    symlinkSync(join('dots', 'gitconfig'), join(home, '.gitconfig'));
    const w = watched([join(home, '.gitconfig')]);
    const look = w.nextLook();
    appendFileSync(join(home, 'dots', 'gitconfig'), '[color]\n\tui = never\n');
    await look;
    w.tripwire.close();
  });

  it('watches a folder that appears later, and again after it was removed and made anew', async () => {
    const root = tempDir('airspace-tripwire-folder-');
    cleanup.push(root);
    const state = join(root, 'airspace');
    const w = watched([], [state]);
    let look = w.nextLook();
    mkdirSync(state);
    await look;
    look = w.nextLook();
    writeFileSync(join(state, 'intent.json'), '{}');
    await look;
    look = w.nextLook();
    rmSync(state, { recursive: true });
    mkdirSync(state);
    await look;
    look = w.nextLook();
    writeFileSync(join(state, 'intent.json'), '{"again":true}');
    await look;
    w.tripwire.close();
  });
});
