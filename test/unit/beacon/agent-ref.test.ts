import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { beaconRef, decodeAgentRefComponent, encodeAgentId } from '../../../src/beacon/agent-ref.js';
import { testEnv } from '../../helpers/temp-repo.js';

function gitAccepts(ref: string): boolean {
  return spawnSync('git', ['check-ref-format', ref], { env: testEnv() }).status === 0;
}

const IDS = [
  'main',
  'feature/x',
  'feature/x.lock',
  '.hidden',
  'a..b',
  'user@{upstream}',
  '@',
  'with space',
  'tilde~caret^colon:question?star*[bracket\\',
  'wt-/home/me/project-2',
  'ünïcödé/分支',
  'trailing/',
  'x'.repeat(400),
  '😀/'.repeat(100),
];

describe('encodeAgentId', () => {
  it.each(IDS)('makes one valid ref component from %j', (id) => {
    const component = encodeAgentId(id);
    expect(component).not.toContain('/');
    expect(Buffer.byteLength(component)).toBeLessThanOrEqual(180);
    expect(gitAccepts(beaconRef(id))).toBe(true);
  });

  it('keeps ids that differ apart, including prefixes of each other', () => {
    const encoded = new Set(['feature', 'feature/x', 'feature%2Fx', 'Feature', 'x'.repeat(400), 'x'.repeat(401)].map(encodeAgentId));
    expect(encoded.size).toBe(6);
  });

  it('decodes plain components back and refuses hashed or foreign ones', () => {
    for (const id of ['feature/x', 'a..b', 'ünïcödé/分支', 'with space']) expect(decodeAgentRefComponent(encodeAgentId(id))).toBe(id);
    expect(decodeAgentRefComponent(encodeAgentId('x'.repeat(400)))).toBeNull();
    expect(decodeAgentRefComponent('feature/x')).toBeNull();
    expect(decodeAgentRefComponent('%2f')).toBeNull();
    expect(decodeAgentRefComponent('%FF')).toBeNull();
  });
});
