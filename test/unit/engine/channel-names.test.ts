import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/defaults.js';
import { ENGINE_CHANNELS, EXTERNAL_CHANNELS, PRODUCT_CHANNELS } from '../../../src/engine/channel-names.js';
import { CHANNELS } from '../../../src/engine/channels.js';
import { DEFAULTS } from '../../../src/engine/defaults.js';

describe('channel names, written out once (src/engine/channel-names.ts)', () => {
  it('the engine defines exactly its own channels; the product adds the external ones', () => {
    expect([...CHANNELS.keys()].sort()).toEqual([...ENGINE_CHANNELS].sort());
    expect([...PRODUCT_CHANNELS].sort()).toEqual([...ENGINE_CHANNELS, ...EXTERNAL_CHANNELS].sort());
  });

  it('the defaults use them: the engine its own, the config every channel, and every channel has a weight', () => {
    expect(DEFAULTS.channels).toEqual(ENGINE_CHANNELS);
    expect(DEFAULT_CONFIG.channels).toEqual(PRODUCT_CHANNELS);
    expect(Object.keys(DEFAULTS.weights).sort()).toEqual([...PRODUCT_CHANNELS].sort());
  });
});
