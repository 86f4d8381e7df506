/**
 * Globs from the committed config (`ignore`), matched against every file name of every peer: a
 * matcher whose time grows with the product of the glob's and the path's lengths, never faster.
 *
 * picomatch compiles a glob to a regular expression, and JavaScript's backtracking engine takes
 * time exponential in the number of `*` on some inputs: `**\/a*a*…a*b` (20 `a*`) against a
 * 36-character file name took 75 s, inside a hook with a 2 s budget, in one synchronous call that
 * no budget can interrupt. Here a glob is split into path segments; `*` within a segment is matched
 * by the classic two-pointer algorithm (one backtrack point, O(glob × segment)), and `**` segments
 * by a pass over the reachable segment positions (O(glob segments × path segments)). Braces are
 * expanded when the glob is compiled (a bounded number of alternatives, GLOB_LIMITS).
 *
 * The syntax is picomatch's common part, with `{ dot: true }`: `*` (one or more characters of a
 * segment when it is the whole segment, any number inside one), `**` as a whole segment (any
 * number of segments), `?`, `[abc]`, `[a-z]`, `[^a]`/`[!a]`, `{a,b}` (nested too), `\` escapes,
 * a leading `./` (dropped) and a leading `!` (matches what the rest does not). Extglobs, regex
 * groups, POSIX classes and brace ranges are refused by the config's validation (`globProblem`).
 * One difference, on purpose: a trailing `/**` matches zero segments or more after any segment
 * (`a*\/**` matches `ab` as `a/**` matches `a`); picomatch's expression misses `ab` there, except
 * when braces change its shape (test/unit/config/compile-globs.test.ts).
 */
export const GLOB_LIMITS = { length: 256, wildcards: 8, alternatives: 64 } as const;

type Token = { readonly kind: 'star' } | { readonly kind: 'any' } | { readonly kind: 'char'; readonly char: string } | ClassToken;
interface ClassToken {
  readonly kind: 'class';
  readonly negated: boolean;
  readonly ranges: readonly (readonly [string, string])[];
}
/** A path segment's pattern, or `**`. */
type Segment = 'globstar' | readonly Token[];

interface Compiled {
  readonly negated: boolean;
  readonly alternatives: readonly (readonly Segment[])[];
}

/**
 * Why a glob is refused, or null if it compiles within the limits. The config's schema uses it, so
 * every glob a run compiles has passed it.
 */
export function globProblem(glob: string): string | null {
  if (glob.length > GLOB_LIMITS.length) return `longer than ${GLOB_LIMITS.length} characters`;
  if (/[@!+*?]\(/.test(glob)) return 'an extglob';
  if (/[()|]/.test(glob.replace(/\\./g, ''))) return 'a ( ) or | group';
  if (glob.includes('[[:')) return 'a POSIX class';
  if (/\{[^{}]*\.\.[^{}]*\}/.test(glob)) return 'a brace range';
  const wildcards = (glob.replace(/\\./g, '').match(/\*+|\?/g) ?? []).length;
  if (wildcards > GLOB_LIMITS.wildcards) return `${wildcards} wildcards`;
  if (expandBraces(stripPrefix(glob).body) === null) return `more than ${GLOB_LIMITS.alternatives} brace alternatives`;
  return null;
}

/** One matcher for a list of globs: true when any of them matches `path` (a `/`-separated repository path). */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const compiled = globs.map(compileGlob);
  return (path) => {
    const segments = path.split('/');
    return compiled.some((glob) => glob.alternatives.some((alternative) => matchSegments(alternative, segments)) !== glob.negated);
  };
}

function stripPrefix(glob: string): { negated: boolean; body: string } {
  const negated = glob.startsWith('!');
  const rest = negated ? glob.slice(1) : glob;
  return { negated, body: rest.startsWith('./') ? rest.slice(2) : rest };
}

function compileGlob(glob: string): Compiled {
  const { negated, body } = stripPrefix(glob);
  // Past the limit (only a glob that skipped validation): the glob as written, braces literal.
  const expanded = expandBraces(body) ?? [body];
  return { negated, alternatives: expanded.map(parseSegments) };
}

/** `{a,b}` expanded (nested too), or null past GLOB_LIMITS.alternatives. A brace with no top-level comma is literal. */
function expandBraces(glob: string): string[] | null {
  const open = findBrace(glob);
  if (open === null) return [glob];
  const { start, end, parts } = open;
  const results: string[] = [];
  for (const part of parts) {
    const expanded = expandBraces(glob.slice(0, start) + part + glob.slice(end + 1));
    if (expanded === null) return null;
    results.push(...expanded);
    if (results.length > GLOB_LIMITS.alternatives) return null;
  }
  return results;
}

/** The first `{…}` with a top-level comma: its bounds and its comma-separated parts. */
function findBrace(glob: string): { start: number; end: number; parts: string[] } | null {
  for (let start = 0; start < glob.length; start++) {
    if (glob[start] === '\\') {
      start++;
      continue;
    }
    if (glob[start] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let at = start; at < glob.length; at++) {
      const char = glob[at];
      if (char === '\\') at++;
      else if (char === '{') depth++;
      else if (char === ',' && depth === 1) commas.push(at);
      else if (char === '}' && --depth === 0) {
        if (commas.length === 0) break;
        const bounds = [start, ...commas, at];
        return { start, end: at, parts: bounds.slice(1).map((bound, i) => glob.slice(bounds[i]! + 1, bound)) };
      }
    }
  }
  return null;
}

function parseSegments(glob: string): Segment[] {
  const segments: Segment[] = [];
  for (const text of splitSegments(glob)) {
    const segment: Segment = text === '**' ? 'globstar' : parseTokens(text);
    // `a/**/**/b` is `a/**/b`.
    if (segment === 'globstar' && segments.at(-1) === 'globstar') continue;
    segments.push(segment);
  }
  return segments;
}

/** Split on `/` outside brackets and escapes. */
function splitSegments(glob: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at]!;
    if (char === '\\' && at + 1 < glob.length) {
      current += char + glob[++at];
    } else if (char === '/') {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
}

function parseTokens(text: string): Token[] {
  const tokens: Token[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '\\' && at + 1 < text.length) tokens.push({ kind: 'char', char: text[++at]! });
    else if (char === '*') {
      // `**` inside a segment is `*`; consecutive stars are one.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '?') tokens.push({ kind: 'any' });
    else if (char === '[') {
      const parsed = parseClass(text, at);
      if (parsed === null) tokens.push({ kind: 'char', char });
      else {
        tokens.push(parsed.token);
        at = parsed.end;
      }
    } else tokens.push({ kind: 'char', char });
  }
  return tokens;
}

/** `[…]` starting at `start`, or null when it does not close (then `[` is literal). */
function parseClass(text: string, start: number): { token: ClassToken; end: number } | null {
  let at = start + 1;
  const negated = text[at] === '!' || text[at] === '^';
  if (negated) at++;
  const ranges: [string, string][] = [];
  let first = true;
  for (; at < text.length; at++) {
    let char = text[at]!;
    if (char === ']' && !first) return { token: { kind: 'class', negated, ranges }, end: at };
    first = false;
    if (char === '\\' && at + 1 < text.length) char = text[++at]!;
    if (text[at + 1] === '-' && at + 2 < text.length && text[at + 2] !== ']') {
      let to = text[at + 2]!;
      at += 2;
      if (to === '\\' && at + 1 < text.length) to = text[++at]!;
      ranges.push([char, to]);
    } else ranges.push([char, char]);
  }
  return null;
}

/** Reachable positions in the path's segments, one glob segment at a time. */
function matchSegments(glob: readonly Segment[], path: readonly string[]): boolean {
  let reach = new Uint8Array(path.length + 1);
  reach[0] = 1;
  for (const segment of glob) {
    const next = new Uint8Array(path.length + 1);
    let any = false;
    if (segment === 'globstar') {
      // Zero or more segments: every position from the first reachable one on.
      const from = reach.indexOf(1);
      if (from >= 0) {
        next.fill(1, from);
        any = true;
      }
    } else {
      for (let at = 0; at < path.length; at++) {
        if (reach[at] === 1 && matchSegment(segment, path[at]!)) {
          next[at + 1] = 1;
          any = true;
        }
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[path.length] === 1;
}

/**
 * One segment against one pattern: stars with a single backtrack point (the last star seen), which
 * is exact for `*` and single-character tokens and never takes more than pattern × text steps.
 */
function matchSegment(tokens: readonly Token[], text: string): boolean {
  // A segment that is only stars stands for a path segment: it is never empty (picomatch's `*`).
  if (text === '' && tokens.length > 0 && tokens.every((token) => token.kind === 'star')) return false;
  let token = 0;
  let at = 0;
  let star = -1;
  let starAt = 0;
  while (at < text.length) {
    const current = tokens[token];
    if (current !== undefined && current.kind !== 'star' && matchesChar(current, text[at]!)) {
      token++;
      at++;
    } else if (current?.kind === 'star') {
      star = token++;
      starAt = at;
    } else if (star >= 0) {
      token = star + 1;
      at = ++starAt;
    } else return false;
  }
  while (tokens[token]?.kind === 'star') token++;
  return token === tokens.length;
}

function matchesChar(token: Exclude<Token, { kind: 'star' }>, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  const inside = token.ranges.some(([from, to]) => char >= from && char <= to);
  return inside !== token.negated;
}
