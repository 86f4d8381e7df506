import * as v from 'valibot';
import { isBranchName, isRemoteName } from '../git/ref-names.js';
import { argumentMessages } from '../messages/command-line.js';
import { configMessages } from '../messages/setup.js';
import { GLOB_LIMITS, globProblem } from './compile-globs.js';
import { PRODUCT_CHANNELS } from '../engine/channel-names.js';

/**
 * The user's configuration, as written in `.airspacerc.json`, `airspace.config.json` or the
 * `airspace` key of package.json. Every key is optional; `resolveConfig` fills in the defaults.
 * Strict objects: a misspelt key is an error, not a silently ignored setting.
 */
const probability = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const positive = v.pipe(v.number(), v.minValue(0));
/**
 * Size limits: the config is committed, so it is outside input. 200,000 globs once took 865 MB
 * to compile; no real configuration comes near these bounds.
 */
/** `depth`: levels of arrays and objects; the schema's deepest key (`hooks.pre-push.mode`) is 3. */
export const CONFIG_LIMITS = { listEntries: 1_000, textLength: 1_000, fileBytes: 256 * 1024, depth: 16 } as const;
const text = v.pipe(v.string(), v.maxLength(CONFIG_LIMITS.textLength));
const mode = v.picklist(['warn', 'block', 'off']);
const CHANNEL_NAMES = PRODUCT_CHANNELS;
/** A `v.check` whose failure reads `"key" must be <expects>` in the config error line. */
const mustBe = (test: (value: string) => boolean, expects: string) => ({ ...v.check(test), expects });
/**
 * A committed glob is matched against every peer's file names inside a hook's budget: bounded in
 * length, wildcards and brace alternatives, in the syntax src/config/compile-globs.ts matches
 * without exponential cases (picomatch took 75 s on one glob of 21 wildcards).
 */
const glob = v.pipe(
  v.string(),
  mustBe((value) => globProblem(value) === null, configMessages.globExpected(GLOB_LIMITS.length, GLOB_LIMITS.wildcards, GLOB_LIMITS.alternatives)),
);
const globs = v.pipe(v.array(glob), v.maxLength(CONFIG_LIMITS.listEntries));

export const HookConfigSchema = v.strictObject({
  mode: v.optional(mode),
  budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(600_000))),
  failClosed: v.optional(v.boolean()),
  publishBeacon: v.optional(v.boolean()),
  fetch: v.optional(v.boolean()),
});

export const UserConfigSchema = v.strictObject({
  $schema: v.optional(text),
  // Both reach git's argv (fetch, push, ref patterns): an option-like value would run a command.
  remote: v.optional(v.pipe(text, mustBe(isRemoteName, argumentMessages.expected('remote')))),
  trunk: v.optional(v.pipe(text, mustBe(isBranchName, argumentMessages.expected('trunk')))),
  peers: v.optional(
    v.strictObject({
      include: v.optional(globs),
      exclude: v.optional(globs),
      maxAgeDays: v.optional(positive),
      /** Refused with its reason in resolveConfig (src/config/load-config.ts), not silently ignored. */
      worktrees: v.optional(v.unknown()),
    }),
  ),
  ignore: v.optional(globs),
  channels: v.optional(v.pipe(v.array(v.picklist(CHANNEL_NAMES)), v.maxLength(CHANNEL_NAMES.length))),
  model: v.optional(
    v.strictObject({
      weights: v.optional(v.record(v.picklist(CHANNEL_NAMES), probability)),
      gamma: v.optional(probability),
      tauTA: v.optional(probability),
      tauRA: v.optional(probability),
      halfLifeHours: v.optional(positive),
      recencyFloor: v.optional(probability),
      intentWeight: v.optional(probability),
      adjacency: v.optional(v.boolean()),
      proximityLines: v.optional(positive),
      breadthFiles: v.optional(positive),
      blockOn: v.optional(v.picklist(['evidence', 'risk'])),
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
      refreshHours: v.optional(positive),
      maxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024))),
      shareUntracked: v.optional(v.boolean()),
      legacyRefs: v.optional(v.picklist(['read', 'publish', 'off'])),
    }),
  ),
  graph: v.optional(
    v.strictObject({
      budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100))),
    }),
  ),
  symbols: v.optional(
    v.strictObject({
      signatureChange: v.optional(v.picklist(['warn', 'block'])),
    }),
  ),
  resident: v.optional(
    v.strictObject({
      enabled: v.optional(v.boolean()),
      idleMinutes: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(24 * 60))),
      fetchIntervalMinutes: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(24 * 60))),
      watch: v.optional(v.boolean()),
      beaconRefreshMinutes: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(24 * 60))),
    }),
  ),
});

export type UserConfig = v.InferOutput<typeof UserConfigSchema>;
export type HookMode = v.InferOutput<typeof mode>;
