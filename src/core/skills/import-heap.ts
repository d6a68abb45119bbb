// How far V8 lets its heap grow while an import runs. An import promotes each batch's texts to the old generation, where
// they die a batch later; by default V8 lets that generation grow to 3-4x what stays live before a full collection
// (a 68k import: ~38 MiB live, the heap at 110-148 MiB between collections, the process's peak 270-320 MiB). A fixed
// growth factor makes the collections come sooner; V8 marks concurrently, so the import takes the same time.
import v8 from 'node:v8';

/** Each full collection lets the heap grow this much (percent) over what it left live. */
export const importHeapGrowingPercent = 20;

let running = 0;

/**
 * Sets V8's heap growing factor while at least one import runs, and returns what puts V8's own (dynamic) factor back
 * once the last one ends. V8 reads the flag at each full collection, so a change applies from the next one on.
 */
export function boundHeapGrowth(): () => void {
  if (running++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${importHeapGrowingPercent}`);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    // 0 is V8's default: the factor it derives from the collection's speed and the allocation rate.
    if (--running === 0) v8.setFlagsFromString('--heap-growing-percent=0');
  };
}
