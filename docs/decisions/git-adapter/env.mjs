// A pre-commit hook of repository A runs git in repository B (a peer worktree / temp repo) with the
// variables git exported to the hook still set. Which repository answers?
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { runGit } = await import(join(process.argv[2], 'dist/git/exec-git.js'));
const { simpleGit } = await import('simple-git');
const mk = (name) => { const r = mkdtempSync(join(tmpdir(), `env-${name}-`)); const g = (...a) => execFileSync('git', a, { cwd: r, encoding: 'utf8' }); g('init', '-q', '-b', 'main'); writeFileSync(join(r, `${name}.txt`), name); g('add', '.'); g('-c', 'user.email=x@y', '-c', 'user.name=x', 'commit', '-qm', name); return { r, head: g('rev-parse', 'HEAD').trim() }; };
const A = mk('a'), B = mk('b');
process.env.GIT_DIR = join(A.r, '.git');
process.env.GIT_INDEX_FILE = join(A.r, '.git', 'index');
const ours = (await runGit(['rev-parse', 'HEAD'], { cwd: B.r })).stdout.toString().trim();
let sg;
try { sg = (await simpleGit({ baseDir: B.r }).revparse(['HEAD'])).trim(); } catch (e) { sg = `error: ${e.message.split('\n')[0]}`; }
let sgEnv;
try { sgEnv = (await simpleGit({ baseDir: B.r }).env({ ...process.env, GIT_DIR: undefined, GIT_INDEX_FILE: undefined }).revparse(['HEAD'])).trim(); } catch (e) { sgEnv = `error: ${e.message.split('\n')[0]}`; }
const who = (h) => (h === A.head ? 'A (wrong repository)' : h === B.head ? 'B (right)' : h);
console.log(`hook env of A, git run in B: runGit -> ${who(ours)}; simple-git default -> ${who(sg)}; simple-git with .env() scrubbed by hand -> ${who(sgEnv)}`);
const oursLs = (await runGit(['ls-files'], { cwd: B.r })).stdout.toString().trim();
let sgLs; try { sgLs = (await simpleGit({ baseDir: B.r }).raw(['ls-files'])).trim(); } catch (e) { sgLs = `error: ${e.message.split('\n')[0]}`; }
console.log(`ls-files in B: runGit -> ${oursLs}; simple-git default -> ${sgLs}`);
delete process.env.GIT_DIR;
const oursLs2 = (await runGit(['ls-files'], { cwd: B.r })).stdout.toString().trim();
let sgLs2; try { sgLs2 = (await simpleGit({ baseDir: B.r }).raw(['ls-files'])).trim(); } catch (e) { sgLs2 = `error: ${e.message.split('\n')[0]}`; }
console.log(`only GIT_INDEX_FILE of A set, ls-files in B: runGit -> ${oursLs2}; simple-git default -> ${sgLs2}`);
