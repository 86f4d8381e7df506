// Which file watcher `airspace-hooks watch` uses, chosen by measurement (docs/decisions/watch.md).
// For each candidate: time until it is ready on a real tree, time until an edit deep in the tree
// is reported, how many events one edit yields, whether a write inside .git/objects is reported,
// and the open inotify watches it costs (Linux: /proc/self/fdinfo).
//   node bench/watchers.mjs TREE [MODULES_DIR]
// MODULES_DIR is a folder with node_modules/chokidar and node_modules/@parcel/watcher installed
// (they are not dependencies of the project): `npm i chokidar@4.0.3 @parcel/watcher@2.6.0`.
import { watch } from 'node:fs';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [tree, modules] = process.argv.slice(2);
if (!tree) throw new Error('usage: node bench/watchers.mjs TREE [MODULES_DIR]');
const load = (name) => (modules ? import(createRequire(join(modules, 'x.js')).resolve(name)) : import(name));

const deepFile = (() => {
  let dir = tree;
  for (let depth = 0; depth < 6; depth++) {
    const sub = readdirSync(dir, { withFileTypes: true }).find((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules');
    if (!sub) break;
    dir = join(dir, sub.name);
  }
  return join(dir, 'airspace-watch-probe.txt');
})();

function inotifyWatches() {
  let total = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      total += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {}
  }
  return total;
}

const candidates = {
  'node:fs.watch recursive': async (onEvent) => {
    const watcher = watch(tree, { recursive: true }, (_type, file) => onEvent(String(file)));
    return () => watcher.close();
  },
  'chokidar (ignore node_modules, .git)': async (onEvent) => {
    const { watch: chokidarWatch } = await load('chokidar');
    const watcher = chokidarWatch(tree, { ignoreInitial: true, ignored: (path) => /[\\/](node_modules|\.git)([\\/]|$)/.test(path) });
    await new Promise((resolve) => watcher.once('ready', resolve));
    watcher.on('all', (_type, file) => onEvent(file));
    return () => watcher.close();
  },
  '@parcel/watcher 2 (ignore node_modules, .git)': async (onEvent) => {
    const parcel = (await load('@parcel/watcher')).default;
    const subscription = await parcel.subscribe(
      tree,
      (_error, events) => {
        for (const e of events) onEvent(e.path);
      },
      { ignore: ['node_modules', '.git'] },
    );
    return () => subscription.unsubscribe();
  },
};

for (const [name, start] of Object.entries(candidates)) {
  const seen = [];
  let resolveProbe;
  const before = inotifyWatches();
  const t0 = performance.now();
  const stop = await start((file) => {
    seen.push(file);
    if (file.endsWith('airspace-watch-probe.txt')) resolveProbe?.();
  });
  const ready = performance.now() - t0;
  const watches = inotifyWatches() - before;
  mkdirSync(join(tree, '.git', 'objects', 'ff'), { recursive: true });
  writeFileSync(join(tree, '.git', 'objects', 'ff', 'airspace-probe'), 'x');
  const t1 = performance.now();
  const probe = new Promise((resolve) => (resolveProbe = resolve));
  writeFileSync(deepFile, `probe ${Date.now()}\n`);
  await Promise.race([probe, new Promise((r) => setTimeout(r, 5000))]);
  const latency = performance.now() - t1;
  await new Promise((r) => setTimeout(r, 300)); // collect the trailing events of the same edit
  await stop();
  const probeEvents = seen.filter((f) => f.endsWith('airspace-watch-probe.txt')).length;
  const gitEvents = seen.filter((f) => f.includes('objects')).length;
  console.log(
    `${name}: ready ${ready.toFixed(0)} ms, edit seen after ${latency.toFixed(0)} ms, ${probeEvents} events for one write, .git/objects events ${gitEvents}, inotify watches ${watches}, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
}
