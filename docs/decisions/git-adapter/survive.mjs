// Cancellation: after each way of stopping a hanging `git ls-remote` (its ssh command sleeps), is the sleeping child still alive?
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { runGit } = await import(join(process.argv[2], 'dist/git/exec-git.js'));
const { simpleGit } = await import('simple-git');
const alive = (tag) => { try { return execFileSync('pgrep', ['-f', `sleep 3${tag}`], { encoding: 'utf8' }).trim().split('\n').length; } catch { return 0; } };
const repo = (tag) => { const r = mkdtempSync(join(tmpdir(), 'survive-')); execFileSync('git', ['init', '-q', r]); execFileSync('git', ['-C', r, 'config', 'core.sshCommand', `sleep 3${tag}; :`]); return r; };
const wait = (ms) => new Promise((res) => setTimeout(res, ms));
let r = repo('0');
try { await runGit(['ls-remote', 'ssh://example.invalid/x.git'], { cwd: r, timeoutMs: 500 }); } catch {}
await wait(300); console.log(`runGit timeoutMs 500 without transport: sleeping ssh children alive after 300 ms: ${alive('0')}`);
r = repo('1');
try { await runGit(['ls-remote', 'ssh://example.invalid/x.git'], { cwd: r, timeoutMs: 500, transport: true }); } catch {}
await wait(300); console.log(`runGit timeoutMs 500 transport (own process group): sleeping ssh children alive after 300 ms: ${alive('1')}`);
r = repo('2'); const c = new AbortController(); setTimeout(() => c.abort(), 500);
try { await simpleGit({ baseDir: r, abort: c.signal }).listRemote(['ssh://example.invalid/x.git']); } catch {}
await wait(300); console.log(`simple-git abort signal: sleeping ssh children alive after 300 ms: ${alive('2')}`);
r = repo('3');
try { await simpleGit({ baseDir: r, timeout: { block: 500 } }).listRemote(['ssh://example.invalid/x.git']); } catch {}
await wait(300); console.log(`simple-git timeout.block: sleeping ssh children alive after 300 ms: ${alive('3')}`);
