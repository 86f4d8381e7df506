// Module load cost in a fresh process: node -e import(...) timed inside.
const target = process.argv[2];
const s = performance.now();
await import(target);
console.log((performance.now() - s).toFixed(2));
