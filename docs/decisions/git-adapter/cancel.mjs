// Cancellation: a git child that hangs (ssh command sleeping) — how each stops it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { runGit } = await import(join(process.argv[2], 'dist/git/exec-git.js'));
const { simpleGit } = await import('simple-git');
const r = mkdtempSync(join(tmpdir(), 'cancel-'));
execFileSync('git', ['init', '-q', r]);
execFileSync('git', ['-C', r, 'config', 'core.sshCommand', 'sleep 30; :']);
let s = performance.now();
try { await runGit(['ls-remote', 'ssh://example.invalid/x.git'], { cwd: r, timeoutMs: 500 }); } catch (e) { console.log(`runGit timeoutMs 500: ${e.code} after ${(performance.now() - s).toFixed(0)} ms`); }
s = performance.now();
const controller = new AbortController();
setTimeout(() => controller.abort(), 500);
try { await simpleGit({ baseDir: r, abort: controller.signal }).listRemote(['ssh://example.invalid/x.git']); } catch (e) { console.log(`simple-git abort signal at 500 ms: ${e.constructor.name} "${e.message.split('\n')[0]}" after ${(performance.now() - s).toFixed(0)} ms`); }
s = performance.now();
try { await simpleGit({ baseDir: r, timeout: { block: 500 } }).listRemote(['ssh://example.invalid/x.git']); } catch (e) { console.log(`simple-git timeout.block 500: "${e.message.split('\n')[0]}" after ${(performance.now() - s).toFixed(0)} ms`); }
