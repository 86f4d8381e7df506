import { describe, expect, it } from 'vitest';
import { EngineError, rightOfWay, type Agent } from '../../../src/index.js';

const agent = (id: string, extra: Partial<Agent> = {}): Agent => ({ id, files: [], ...extra });

describe('right of way', () => {
  it('more committed work holds', () => {
    expect(rightOfWay(agent('z', { committedWork: 3 }), agent('a', { committedWork: 1 }))).toEqual({ hold: 'z', steer: 'a' });
  });
  it('on equal work the older agent holds; a missing start counts as the youngest', () => {
    expect(rightOfWay(agent('z', { startedAt: 10 }), agent('a', { startedAt: 20 }))).toEqual({ hold: 'z', steer: 'a' });
    expect(rightOfWay(agent('a'), agent('z', { startedAt: 20 }))).toEqual({ hold: 'z', steer: 'a' });
    expect(rightOfWay(agent('a', { committedWork: 0 }), agent('b', { committedWork: undefined }))).toEqual({ hold: 'a', steer: 'b' });
  });
  it('falls back to code-unit id order', () => {
    expect(rightOfWay(agent('feature/b'), agent('feature/a'))).toEqual({ hold: 'feature/a', steer: 'feature/b' });
    expect(rightOfWay(agent('B'), agent('a'))).toEqual({ hold: 'B', steer: 'a' }); // 'B' < 'a' in code units
  });
  it('refuses a pair of one agent with itself', () => {
    expect(() => rightOfWay(agent('x'), agent('x'))).toThrow(EngineError);
  });
});
