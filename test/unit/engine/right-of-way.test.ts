import { describe, expect, it } from 'vitest';
import { EngineError, rightOfWay, type Agent } from '../../../src/index.js';

const agent = (id: string, extra: Partial<Agent> = {}): Agent => ({ id, files: [], ...extra });

describe('right of way', () => {
  it('more committed work holds', () => {
    expect(rightOfWay(agent('z', { committedWork: 3 }), agent('a', { committedWork: 1 }))).toEqual({ hold: 'z', steer: 'a', holdReason: 'committed-work' });
  });
  it('on equal work the older agent holds; a missing start counts as the youngest', () => {
    expect(rightOfWay(agent('z', { startedAt: 10 }), agent('a', { startedAt: 20 }))).toEqual({ hold: 'z', steer: 'a', holdReason: 'started-earlier' });
    expect(rightOfWay(agent('a'), agent('z', { startedAt: 20 }))).toEqual({ hold: 'z', steer: 'a', holdReason: 'started-earlier' });
    expect(rightOfWay(agent('a', { committedWork: 0 }), agent('b', { committedWork: undefined }))).toEqual({ hold: 'a', steer: 'b', holdReason: 'name-order' });
  });
  it('falls back to code-unit id order', () => {
    expect(rightOfWay(agent('feature/b'), agent('feature/a'))).toEqual({ hold: 'feature/a', steer: 'feature/b', holdReason: 'name-order' });
    expect(rightOfWay(agent('B'), agent('a'))).toEqual({ hold: 'B', steer: 'a', holdReason: 'name-order' }); // 'B' < 'a' in code units
  });
  it('the last tie-break is the rank key both machines know: `main` here is `main@<clone>` there', () => {
    // Machine A sees itself as `main` (rank main@aaaa) and B's beacon as `main@b` (rank main@bbbb);
    // machine B sees the mirror image. Ranked by id, each would hold; ranked by key, A holds on both.
    const onA = rightOfWay(agent('main', { rankKey: 'main@aaaa' }), agent('main@b', { rankKey: 'main@bbbb' }));
    const onB = rightOfWay(agent('main@a', { rankKey: 'main@aaaa' }), agent('main', { rankKey: 'main@bbbb' }));
    expect(onA).toEqual({ hold: 'main', steer: 'main@b', holdReason: 'name-order' });
    expect(onB).toEqual({ hold: 'main@a', steer: 'main', holdReason: 'name-order' });
  });
  it('refuses a pair of one agent with itself', () => {
    expect(() => rightOfWay(agent('x'), agent('x'))).toThrow(EngineError);
  });
});
