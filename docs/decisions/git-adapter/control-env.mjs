// Control for env.mjs: a bare execFileSync with the hook's GIT_DIR / GIT_INDEX_FILE of A, run in B.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const mk = (name) => { const r = mkdtempSync(join(tmpdir(), `env-${name}-`)); const g = (...a) => execFileSync('git', a, { cwd: r, encoding: 'utf8' }); g('init', '-q', '-b', 'main'); writeFileSync(join(r, `${name}.txt`), name); g('add', '.'); g('-c', 'user.email=x@y', '-c', 'user.name=x', 'commit', '-qm', name); return r; };
const A = mk('a'), B = mk('b');
const run = (env, ...a) => execFileSync('git', a, { cwd: B, encoding: 'utf8', env: { ...process.env, ...env } }).trim();
console.log(`bare spawn, GIT_DIR+GIT_INDEX_FILE of A, ls-files in B -> ${run({ GIT_DIR: join(A, '.git'), GIT_INDEX_FILE: join(A, '.git', 'index') }, 'ls-files')}`);
console.log(`bare spawn, only GIT_INDEX_FILE of A, ls-files in B -> ${run({ GIT_INDEX_FILE: join(A, '.git', 'index') }, 'ls-files')}`);
