import * as v from 'valibot';

/**
 * The user's configuration, as written in `.airspacerc.json`, `airspace.config.json` or the
 * `airspace` key of package.json. Every key is optional; `resolveConfig` fills in the defaults.
 * Strict objects: a misspelt key is an error, not a silently ignored setting.
 */
const probability = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const positive = v.pipe(v.number(), v.minValue(0));
const globs = v.array(v.string());
const mode = v.picklist(['warn', 'block', 'off']);

export const HookConfigSchema = v.strictObject({
  mode: v.optional(mode),
  budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(600_000))),
  failClosed: v.optional(v.boolean()),
  publishBeacon: v.optional(v.boolean()),
  fetch: v.optional(v.boolean()),
});

export const UserConfigSchema = v.strictObject({
  $schema: v.optional(v.string()),
  remote: v.optional(v.pipe(v.string(), v.minLength(1))),
  trunk: v.optional(v.pipe(v.string(), v.minLength(1))),
  peers: v.optional(
    v.strictObject({
      include: v.optional(globs),
      exclude: v.optional(globs),
      maxAgeDays: v.optional(positive),
      worktrees: v.optional(v.boolean()),
    }),
  ),
  ignore: v.optional(globs),
  channels: v.optional(v.array(v.picklist(['overlap', 'proximity', 'breadth', 'dependency', 'tree', 'merge']))),
  model: v.optional(
    v.strictObject({
      weights: v.optional(v.record(v.string(), probability)),
      gamma: v.optional(probability),
      tauTA: v.optional(probability),
      tauRA: v.optional(probability),
      halfLifeHours: v.optional(positive),
      recencyFloor: v.optional(probability),
      intentWeight: v.optional(probability),
      adjacency: v.optional(v.boolean()),
      proximityLines: v.optional(positive),
      breadthFiles: v.optional(positive),
    }),
  ),
  hooks: v.optional(
    v.strictObject({
      'pre-commit': v.optional(HookConfigSchema),
      'pre-push': v.optional(HookConfigSchema),
    }),
  ),
  beacons: v.optional(
    v.strictObject({
      ttlHours: v.optional(positive),
      maxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024))),
    }),
  ),
  graph: v.optional(
    v.strictObject({
      budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100))),
    }),
  ),
});

export type UserConfig = v.InferOutput<typeof UserConfigSchema>;
export type HookMode = v.InferOutput<typeof mode>;
