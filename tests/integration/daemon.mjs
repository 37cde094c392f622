// daemon.mjs: the JavaScript tests' daemon and their check lines (the C
// tests have daemon.c).
//
// startDaemon starts `gamejudge serve` on loopback with a free port (and a
// free admin port when the args or env ask for an admin listener) and
// resolves once it says where it listens; report prints one check's line.

import { spawn } from 'node:child_process';

const counts = { passed: 0, failed: 0 };

/** Record and print one check's outcome; `detail` is shown on failure. */
export function report(ok, name, detail) {
  if (ok) counts.passed++;
  else counts.failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail}`}`);
}

/** Print "LABEL: N passed, M failed" and exit 1 when any check failed. */
export function finish(label) {
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed === 0 ? 0 : 1);
}

/**
 * Start BIN serve with `args` (after --host 127.0.0.1 --port 0) and, when
 * `env` is given, that environment instead of this process's.  Resolves to
 * { child, base, admin, log(), waitLog(), stop() }: base is the public URL, admin the
 * admin listener's URL (null without one), log() the stderr so far,
 * waitLog(re, from) the stderr from offset `from` once re matches it (or
 * after 10 s: access lines are written within a second, log.h), stop()
 * a promise of the exit after SIGTERM.  Rejects when it exits first or says
 * nothing within 10 s.  A daemon given no store (no --store in `args`, no
 * GAMEJUDGE_STORE in `env`) runs with `--store none`: stateless, leaving
 * nothing behind in the working directory.
 * @param {{ bin?: string, args?: string[], env?: NodeJS.ProcessEnv }} [options]
 */
export function startDaemon({ bin = process.env.GJ_BIN || 'build/gamejudge', args = [], env } = {}) {
  const wantAdmin = args.some((a) => a.startsWith('--admin-address')) || (env && env.GAMEJUDGE_ADMIN_ADDRESS !== undefined);
  return new Promise((resolve, reject) => {
    const named = args.some((a) => a.startsWith('--store')) || (env && env.GAMEJUDGE_STORE !== undefined);
    const store = named ? [] : ['--store', 'none'];
    const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', '0', ...args, ...store], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(env ? { env } : {}),
    });
    let out = '';
    let log = '';
    child.stderr.on('data', (d) => (log += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the daemon did not say where it listens within 10 s: ${log}`));
    }, 10_000);
    const early = (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${log.trim().split('\n').pop()}`));
    };
    child.on('exit', early);
    child.stdout.on('data', (d) => {
      out += d;
      const pub = out.match(/^listening on (https?:\/\/\S+)\n/m);
      const adm = out.match(/^admin listening on (http:\/\/\S+)\n/m);
      if (!pub || (wantAdmin && !adm)) return;
      clearTimeout(timer);
      child.off('exit', early);
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done(child.exitCode);
          child.on('exit', done);
          child.kill('SIGTERM');
        });
      // Access lines are buffered up to a second (server/runtime/log.h): wait for one.
      const waitLog = async (pattern, from = 0, ms = 10_000) => {
        for (const end = Date.now() + ms; !pattern.test(log.slice(from)) && Date.now() < end; )
          await new Promise((r) => setTimeout(r, 20));
        return log.slice(from);
      };
      resolve({ child, base: pub[1], admin: adm ? adm[1] : null, log: () => log, waitLog, stop });
    });
  });
}
