// checks.mjs: the browser tests' named checks.  check(name, fn) runs one
// and prints "ok" or "FAIL" with why; expect(ok, message) fails the check
// it is in; counts holds how many passed and failed, for the last line.

export const counts = { passed: 0, failed: 0 };

/** A failed expectation (its message is printed alone, without a stack). */
export class Failure extends Error {}

/** Fail the running check with `message` unless `ok`. */
export function expect(ok, message) {
  if (!ok) throw new Failure(message);
}

/** Whether two JSON values are equal, key order included. */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Run one named check; any thrown error fails it (and only it). */
export async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    counts.passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    counts.failed++;
    const detail = e instanceof Failure ? e.message : (e && e.stack) || String(e);
    console.log(`FAIL ${name}\n     ${detail.split('\n').join('\n     ')}`);
  }
}
