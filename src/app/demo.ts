import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { playStory, type StoryResult, type StoryStep } from '../demo/story.js';
import { renderRadarHtml } from '../report/radar-html.js';

export type { StoryStep } from '../demo/story.js';

/** `demo`: plays the story in `root` (real repositories, real hooks), step by step, and writes the radar page of its scans beside them. */
export async function playDemo(root: string, onStep: (step: StoryStep) => void): Promise<{ result: StoryResult; radarFile: string }> {
  const result = await playStory(root, onStep);
  const radarFile = join(root, 'airspace-demo.html');
  await writeFile(radarFile, renderRadarHtml(result.steps.map((s) => ({ title: s.title, at: s.at, scan: s.scan }))));
  return { result, radarFile };
}
