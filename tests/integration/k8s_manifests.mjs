#!/usr/bin/env node
// k8s_manifests.mjs: the Kubernetes manifests (docker/k8s/*.yaml), which
// cannot run here, checked two ways.
//
//  1. Every object against the Kubernetes API schemas, with npm's
//     kubernetes-models (pinned in package.json): each kind's class and its
//     validate(), offline.
//  2. What a schema cannot know, against the binary itself: the pod's env
//     and args start a real `gamejudge serve` here (on loopback, free
//     ports), so every value must be one it accepts; each probe's path must
//     answer 200 on the port the probe names and the Prometheus annotation's
//     path must answer metrics on its port (the manifest's ports mapped to
//     the ones bound here); every env var is one `serve --help` documents;
//     the termination grace exceeds preStop + --grace; selectors match the
//     pod labels; the Service targets a container port; the HPA targets a
//     Deployment of these files, whose containers request CPU.
//  3. The store: GAMEJUDGE_STORE (a URL with a password) comes from a
//     Secret by secretKeyRef, not optional, and the Secret's name and key
//     are the ones the files' `kubectl create secret` line makes.  The live
//     runs give that reference a SQLite file in a temporary folder.
//  4. The probes and the store, when a throwaway PostgreSQL cluster can be
//     made (tests/integration/pg_cluster.sh): the binary started like the
//     container on it, the cluster stopped, then started again; the
//     readiness probe must answer 200, then not 200 while the store is
//     down (the pod leaves the Service), then 200 again without a restart,
//     and the liveness probe 200 throughout (an outage of the database
//     must restart no pod).
//
// The checks are then run on broken copies of the manifests (a probe on a
// path nothing serves, an undocumented variable, a short grace, an HPA
// aimed elsewhere, ...), each of which must be caught: a check that cannot
// fail is not run.
//
// Run from the repository root after `make all`:
//   node tests/integration/k8s_manifests.mjs
// GJ_BIN overrides the binary.  Prints one line per check, then
// "k8s: N passed, M failed"; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { finish, report, startDaemon } from './daemon.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const yaml = require('js-yaml');
const MODELS = join(process.cwd(), 'node_modules', 'kubernetes-models');
const BIN = process.env.GJ_BIN || 'build/gamejudge';
const DIR = 'docker/k8s';
// The Secret the live runs resolve every secretKeyRef to: a store that works here.
const SCRATCH = mkdtempSync(join(tmpdir(), 'gj-k8s-'));
process.on('exit', () => rmSync(SCRATCH, { recursive: true, force: true }));
const SECRET_VALUE = `sqlite:${join(SCRATCH, 'store.db')}`;

/* ---------------------------------------------------------- the binary */

/** What `serve --help` says: env names, routes (with their listener), defaults. */
function readHelp() {
  const text = execFileSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
  const env = new Set(text.match(/GAMEJUDGE_[A-Z_]+/g));
  const routes = [];
  for (const m of text.matchAll(/^ {2}GET (\/\S*)\s+(.*)$/gm)) {
    const where = /only on --admin-address/.test(m[2]) ? 'admin' : /also on --admin-address/.test(m[2]) ? 'both' : 'public';
    routes.push({ path: m[1], where });
  }
  const grace = Number((text.match(/--grace S\s+\S+\s+.*\(default (\d+)\)/) || [])[1]);
  const port = Number((text.match(/--port P\s+\S+\s+.*\(default (\d+)\)/) || [])[1]);
  return { env, routes, grace, port };
}

/**
 * Start the binary with a container's env and args on loopback, every
 * listener on a free port (startDaemon); resolves to { public, admin,
 * stop() } with the bound ports (admin null without one).
 */
async function startLike(container, secretValue = SECRET_VALUE) {
  const env = { PATH: process.env.PATH };
  for (const e of container.env || []) env[e.name] = e.valueFrom?.secretKeyRef ? secretValue : String(e.value ?? '');
  if (env.GAMEJUDGE_ADMIN_ADDRESS !== undefined) env.GAMEJUDGE_ADMIN_ADDRESS = '127.0.0.1:0';
  const args = (container.args || []).map(String);
  const d = await startDaemon({ bin: BIN, args, env });
  const port = (url) => (url ? Number(url.slice(url.lastIndexOf(':') + 1)) : null);
  return { public: port(d.base), admin: port(d.admin), stop: d.stop };
}

/** GET a path on a loopback port: { status, body }, status 0 when unreachable. */
async function get(port, path) {
  try {
    const r = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: r.status, body: await r.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

/* ------------------------------------------------------------ schemas */

/** The kubernetes-models class for an object's apiVersion and kind, or null. */
async function modelClass(obj) {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return null;
  const parts = obj.apiVersion.split('/');
  const folder = parts.length === 1 ? parts[0] : `${parts[0]}/${parts[1]}`;
  try {
    const mod = await import(pathToFileURL(join(MODELS, folder, `${obj.kind}.js`)));
    return mod[obj.kind] || null;
  } catch {
    return null;
  }
}

/** Schema problems of one object (empty when it validates). */
async function schemaProblems(obj) {
  const Cls = await modelClass(obj);
  if (Cls === null) return [`no Kubernetes schema for apiVersion ${obj.apiVersion} kind ${obj.kind}`];
  try {
    new Cls(obj).validate();
    return [];
  } catch (e) {
    return [String(e.message || e).split('\n')[0]];
  }
}

/* ------------------------------------------------- beyond the schemas */

/** The port of `value` (a number or a container port's name) in container c, or null. */
function containerPort(c, value) {
  for (const p of c.ports || []) if (p.name === value || p.containerPort === value) return p.containerPort;
  return null;
}

/** The manifest's own port numbers for the public and admin listeners of container c. */
function manifestPorts(c, help) {
  const env = Object.fromEntries((c.env || []).map((e) => [e.name, String(e.value ?? '')]));
  const arg = (flag) => {
    const args = (c.args || []).map(String);
    const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    if (i < 0) return undefined;
    return args[i].includes('=') ? args[i].slice(flag.length + 1) : args[i + 1];
  };
  const pub = Number(arg('--port') ?? env.GAMEJUDGE_PORT ?? help.port);
  const adminText = arg('--admin-address') ?? env.GAMEJUDGE_ADMIN_ADDRESS;
  const admin = adminText === undefined ? null : Number(adminText.slice(adminText.lastIndexOf(':') + 1));
  const grace = Number(arg('--grace') ?? env.GAMEJUDGE_GRACE ?? help.grace);
  return { pub, admin, grace };
}

/**
 * The Secrets the manifests' comments tell to make: a Map from each name of
 * a `kubectl create secret generic NAME --from-literal=KEY=...` line to its
 * keys.
 */
function documentedSecrets(text) {
  const made = new Map();
  for (const m of text.matchAll(/kubectl create secret generic (\S+)((?: --from-literal=[^=\s]+=\S*)+)/g))
    made.set(m[1], new Set([...m[2].matchAll(/--from-literal=([^=\s]+)=/g)].map((k) => k[1])));
  return made;
}

/**
 * Problems of container c's store URL: GAMEJUDGE_STORE must come from a
 * Secret (the URL carries the database's password), the reference must not
 * be optional (a pod without it would keep a SQLite store of its own), and
 * the Secret must be one the files say how to make, with that key (a
 * Secret object of the files counts too).
 */
function storeProblems(c, where, objects, text) {
  const e = (c.env ?? []).find((v) => v.name === 'GAMEJUDGE_STORE');
  if (!e) return [`${where}: no GAMEJUDGE_STORE: each pod would keep a SQLite store of its own`];
  const ref = e.valueFrom?.secretKeyRef;
  if (!ref) return [`${where}: GAMEJUDGE_STORE is a literal value; the URL holds the database's password: take it from a Secret (secretKeyRef)`];
  const problems = [];
  if (ref.optional) problems.push(`${where}: GAMEJUDGE_STORE's secretKeyRef is optional: a pod without the Secret would keep a SQLite store of its own`);
  const made = documentedSecrets(text);
  for (const o of objects.filter((x) => x.kind === 'Secret'))
    made.set(o.metadata?.name, new Set([...Object.keys(o.data ?? {}), ...Object.keys(o.stringData ?? {})]));
  if (!made.has(ref.name)) problems.push(`${where}: GAMEJUDGE_STORE reads Secret ${ref.name}, which no 'kubectl create secret' line of the files (nor a Secret object) makes`);
  else if (!made.get(ref.name).has(ref.key)) problems.push(`${where}: GAMEJUDGE_STORE reads key ${ref.key} of Secret ${ref.name}, which is made without it`);
  return problems;
}

/** 1 when labels (an object) hold every pair of selector. */
function selects(selector, labels) {
  return Object.entries(selector || {}).every(([k, v]) => (labels || {})[k] === v);
}

/**
 * Every problem a schema cannot see, over all objects; `live(container)`
 * starts the binary like the container (startLike) so probes are asked
 * for real; `text` is the files' text, whose comments say how to make the
 * Secrets.
 */
async function meaningProblems(objects, help, live, text) {
  const problems = [];
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  if (deployments.length === 0) problems.push('no Deployment in the manifests');
  for (const d of deployments) {
    const pod = d.spec?.template ?? {};
    const name = `Deployment ${d.metadata?.name}`;
    if (!selects(d.spec?.selector?.matchLabels, pod.metadata?.labels))
      problems.push(`${name}: spec.selector.matchLabels does not select its own pod labels`);
    for (const c of pod.spec?.containers ?? []) {
      const where = `${name} container ${c.name}`;
      for (const e of c.env ?? [])
        if (e.name.startsWith('GAMEJUDGE_') && !help.env.has(e.name))
          problems.push(`${where}: env ${e.name} is not one that serve --help documents`);
      const ports = manifestPorts(c, help);
      for (const p of c.ports ?? [])
        if (p.containerPort !== ports.pub && p.containerPort !== ports.admin)
          problems.push(`${where}: containerPort ${p.containerPort} is neither the service's port (${ports.pub}) nor its admin port (${ports.admin ?? 'none'})`);
      const sleep = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      const term = pod.spec?.terminationGracePeriodSeconds ?? 30;
      if (!(term > ports.grace + sleep))
        problems.push(`${where}: terminationGracePeriodSeconds ${term} does not exceed preStop ${sleep} s + --grace ${ports.grace} s`);
      if (!c.resources?.requests?.cpu) problems.push(`${where}: no CPU request, which the HPA's utilisation is measured against`);
      problems.push(...storeProblems(c, where, objects, text));

      // Probes and the scrape annotation, asked of the running binary.
      const asks = [];
      for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        const h = c[kind]?.httpGet;
        if (!c[kind]) continue;
        if (!h) {
          problems.push(`${where}: ${kind} is not an httpGet probe`);
          continue;
        }
        if (h.scheme && h.scheme !== 'HTTP') problems.push(`${where}: ${kind} uses ${h.scheme}; the probes' listener speaks HTTP`);
        if (!help.routes.some((r) => r.path === h.path)) problems.push(`${where}: ${kind} path ${h.path} is no GET route of serve --help`);
        const port = containerPort(c, h.port);
        if (port === null) problems.push(`${where}: ${kind} names port ${h.port}, which the container does not declare`);
        else asks.push({ what: `${kind} GET ${h.path} on port ${port}`, port, path: h.path, metrics: false });
      }
      const ann = pod.metadata?.annotations ?? {};
      if (ann['prometheus.io/scrape'] === 'true') {
        const port = Number(ann['prometheus.io/port'] ?? ports.pub);
        asks.push({ what: `Prometheus GET ${ann['prometheus.io/path'] ?? '/metrics'} on port ${port}`, port, path: ann['prometheus.io/path'] ?? '/metrics', metrics: true });
      }
      if (asks.length === 0) continue;
      let run;
      try {
        run = await live(c);
      } catch (e) {
        problems.push(`${where}: the binary does not start with this env and args: ${e.message}`);
        continue;
      }
      try {
        for (const a of asks) {
          const bound = a.port === ports.pub ? run.public : a.port === ports.admin ? run.admin : null;
          if (bound === null) {
            problems.push(`${where}: ${a.what}: nothing listens on that port`);
            continue;
          }
          const r = await get(bound, a.path);
          const ok = r.status === 200 && (!a.metrics || /^gamejudge_/m.test(r.body));
          if (!ok) problems.push(`${where}: ${a.what} answers ${r.status}, not 200${a.metrics ? ' with metrics' : ''}`);
        }
      } finally {
        await run.stop();
      }
    }
  }
  for (const s of objects.filter((o) => o.kind === 'Service')) {
    const pods = deployments.filter((d) => selects(s.spec?.selector, d.spec?.template?.metadata?.labels));
    if (pods.length === 0) problems.push(`Service ${s.metadata?.name}: its selector matches no Deployment's pods`);
    for (const p of s.spec?.ports ?? [])
      for (const d of pods)
        if (!(d.spec.template.spec.containers ?? []).some((c) => containerPort(c, p.targetPort ?? p.port) !== null))
          problems.push(`Service ${s.metadata?.name}: targetPort ${p.targetPort} is no container port of ${d.metadata.name}`);
  }
  for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const t = h.spec?.scaleTargetRef ?? {};
    const target = deployments.find((d) => t.kind === 'Deployment' && t.apiVersion === d.apiVersion && t.name === d.metadata?.name);
    if (!target) problems.push(`HorizontalPodAutoscaler ${h.metadata?.name}: scaleTargetRef ${t.apiVersion} ${t.kind} ${t.name} is no Deployment of these files`);
    if ((h.spec?.minReplicas ?? 1) > h.spec?.maxReplicas) problems.push(`HorizontalPodAutoscaler ${h.metadata?.name}: minReplicas exceeds maxReplicas`);
  }
  return problems;
}

/* ----------------------------------------------------- store outage */

const PG_CLUSTER = 'tests/integration/pg_cluster.sh';

/** Run pg_cluster.sh with args: its stdout lines, or null when it fails. */
function pgCluster(...args) {
  try {
    return execFileSync('sh', [PG_CLUSTER, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n');
  } catch {
    return null;
  }
}

/** Poll GET path on port until the status satisfies want, up to ms: the last status. */
async function pollStatus(port, path, want, ms) {
  let status = 0;
  for (const end = Date.now() + ms; Date.now() < end; ) {
    status = (await get(port, path)).status;
    if (want(status)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return status;
}

/**
 * The first Deployment container started like itself on a throwaway
 * PostgreSQL cluster, which is stopped and started again: each probe
 * path's status on each listener ('public', 'admin') while the store is up,
 * down and back, as { up, down, back } maps from 'listener path' to the
 * status; null when no cluster can be made here.
 */
async function storeOutage(objects) {
  const c = objects.find((o) => o.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0];
  const started = c ? pgCluster('start') : null;
  if (started === null) return null;
  const [url, dir] = started;
  const paths = [...new Set(['readinessProbe', 'livenessProbe', 'startupProbe'].map((k) => c[k]?.httpGet?.path).filter(Boolean))];
  const seen = { up: {}, down: {}, back: {} };
  let run = null;
  try {
    run = await startLike(c, url);
    const listeners = { public: run.public, admin: run.admin };
    const ask = async (phase, want, ms) => {
      for (const [name, port] of Object.entries(listeners))
        if (port !== null)
          for (const path of paths) seen[phase][`${name} ${path}`] = await pollStatus(port, path, want(path), ms);
    };
    // Readiness follows the store once a second: each phase waits for the
    // change it expects of /readyz, and takes the other paths as they are.
    await ask('up', () => (s) => s === 200, 10_000);
    pgCluster('stop', dir);
    await ask('down', (path) => (path === '/readyz' ? (s) => s !== 200 && s !== 0 : () => true), 15_000);
    pgCluster('start', dir);
    await ask('back', (path) => (path === '/readyz' ? (s) => s === 200 : () => true), 20_000);
  } finally {
    if (run) await run.stop();
    pgCluster('destroy', dir);
  }
  return seen;
}

/**
 * What the outage's statuses say of the objects' probes: readiness must
 * answer 200 with the store up, not 200 with it down, 200 once it is back;
 * liveness (and a startup probe) 200 throughout.
 */
function outageProblems(objects, seen, help) {
  const problems = [];
  for (const d of objects.filter((o) => o.kind === 'Deployment'))
    for (const c of d.spec?.template?.spec?.containers ?? []) {
      const ports = manifestPorts(c, help);
      for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        const h = c[kind]?.httpGet;
        if (!h) continue;
        const port = containerPort(c, h.port);
        const key = `${port === ports.admin ? 'admin' : 'public'} ${h.path}`;
        const [up, down, back] = [seen.up[key], seen.down[key], seen.back[key]];
        const where = `Deployment ${d.metadata?.name} container ${c.name}: ${kind} GET ${h.path}`;
        if (up === undefined) problems.push(`${where}: not asked in the outage run`);
        else if (kind === 'readinessProbe') {
          if (up !== 200 || back !== 200) problems.push(`${where} answers ${up} with the store up and ${back} once it is back, not 200`);
          if (down === 200) problems.push(`${where} answers 200 while the store is down: the pod would stay in the Service`);
        } else if (up !== 200 || down !== 200 || back !== 200)
          problems.push(`${where} answers ${up}, ${down} while the store is down, ${back}: an outage of the database would restart the pod`);
      }
    }
  return problems;
}

/* ----------------------------------------------------------------- run */

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
  .sort();
const objects = [];
let text = '';
for (const f of files) {
  const t = readFileSync(join(DIR, f), 'utf8');
  text += t;
  for (const doc of yaml.loadAll(t)) if (doc) objects.push({ file: f, doc });
}
report(objects.length >= 3, `docker/k8s holds objects (${objects.map((o) => `${o.file}: ${o.doc.kind}`).join(', ')})`);

for (const { file, doc } of objects) {
  const problems = await schemaProblems(doc);
  report(problems.length === 0, `${file}: ${doc.kind} ${doc.metadata?.name} matches the Kubernetes schema`, problems.join('; '));
}

const help = readHelp();
report(help.routes.length > 0 && help.env.size > 0 && help.grace > 0, 'serve --help lists routes, variables and the grace');
const docs = objects.map((o) => o.doc);
const found = await meaningProblems(docs, help, startLike, text);
report(found.length === 0, 'the manifests agree with the binary (probes, scraping, env, grace, selectors, HPA, the store\'s Secret)', found.join('\n     '));

// Broken copies: each must be caught, by the schema or by the checks above.
const clone = () => structuredClone(docs);
const dep = (d) => d.find((o) => o.kind === 'Deployment');
const ctr = (d) => dep(d).spec.template.spec.containers[0];
const storeEnv = (d) => ctr(d).env.find((e) => e.name === 'GAMEJUDGE_STORE');
const broken = [
  ['a probe on a path nothing serves', (d) => (ctr(d).readinessProbe.httpGet.path = '/ready'), /readinessProbe GET \/ready .* answers 404/],
  ['a probe on an undeclared port', (d) => (ctr(d).livenessProbe.httpGet.port = 'probes'), /livenessProbe names port probes/],
  ['/metrics scraped on the public port', (d) => (dep(d).spec.template.metadata.annotations['prometheus.io/port'] = '8080'), /Prometheus GET \/metrics on port 8080 answers 404/],
  ['an undocumented variable', (d) => ctr(d).env.push({ name: 'GAMEJUDGE_WORKER', value: '2' }), /env GAMEJUDGE_WORKER is not/],
  ['a value the binary refuses', (d) => (ctr(d).env.find((e) => e.name === 'GAMEJUDGE_GRACE').value = 'soon'), /does not start with this env/],
  ['a grace as long as the stop', (d) => (dep(d).spec.template.spec.terminationGracePeriodSeconds = 35), /terminationGracePeriodSeconds 35 does not exceed/],
  ['an HPA aimed at another Deployment', (d) => (d.find((o) => o.kind === 'HorizontalPodAutoscaler').spec.scaleTargetRef.name = 'judge'), /scaleTargetRef apps\/v1 Deployment judge/],
  ['a selector missing the pods', (d) => (dep(d).spec.selector.matchLabels = { app: 'other' }), /does not select its own pod labels/],
  ['a Service on a port the pods lack', (d) => (d.find((o) => o.kind === 'Service').spec.ports[0].targetPort = 'web'), /targetPort web is no container port/],
  ['the store URL written into the manifest', (d) => Object.assign(storeEnv(d), { value: 'postgresql://gamejudge:pw@db/gamejudge', valueFrom: undefined }), /GAMEJUDGE_STORE is a literal value/],
  ['no store URL at all', (d) => (ctr(d).env = ctr(d).env.filter((e) => e.name !== 'GAMEJUDGE_STORE')), /no GAMEJUDGE_STORE/],
  ['an optional store Secret', (d) => (storeEnv(d).valueFrom.secretKeyRef.optional = true), /secretKeyRef is optional/],
  ['a store Secret nothing makes', (d) => (storeEnv(d).valueFrom.secretKeyRef.name = 'gamejudge-db'), /Secret gamejudge-db, which no/],
  ['a key the store Secret lacks', (d) => (storeEnv(d).valueFrom.secretKeyRef.key = 'uri'), /key uri of Secret gamejudge-store/],
];
for (const [what, mutate, expected] of broken) {
  const d = clone();
  mutate(d);
  const problems = await meaningProblems(d, help, startLike, text);
  report(problems.some((p) => expected.test(p)), `caught: ${what}`, `problems were: ${problems.join('; ') || 'none'}`);
}
const outage = await storeOutage(docs);
if (outage === null) console.log('skip the probes in a store outage: no PostgreSQL cluster here (tests/integration/pg_cluster.sh)');
else {
  const problems = outageProblems(docs, outage, help);
  report(problems.length === 0, `the probes know the store: readiness ${JSON.stringify(outage.up['admin /readyz'])} -> ${outage.down['admin /readyz']} with PostgreSQL stopped -> ${outage.back['admin /readyz']} once back; liveness ${outage.down['admin /healthz']} throughout`, problems.join('\n     '));
  const live = clone();
  ctr(live).livenessProbe.httpGet.path = '/readyz';
  const p1 = outageProblems(live, outage, help);
  report(p1.some((p) => /livenessProbe GET \/readyz .* restart the pod/.test(p)), 'caught: a liveness probe that asks the store', `problems were: ${p1.join('; ') || 'none'}`);
  const blind = clone();
  ctr(blind).readinessProbe.httpGet.path = '/healthz';
  const p2 = outageProblems(blind, outage, help);
  report(p2.some((p) => /readinessProbe GET \/healthz answers 200 while the store is down/.test(p)), 'caught: a readiness probe blind to the store', `problems were: ${p2.join('; ') || 'none'}`);
}
const schemaBroken = [
  ['a port given as text', (d) => (ctr(d).ports[0].containerPort = '8080')],
  ['replicas as text', (d) => (dep(d).spec.replicas = 'two')],
  ['an HPA without maxReplicas', (d) => delete d.find((o) => o.kind === 'HorizontalPodAutoscaler').spec.maxReplicas],
];
for (const [what, mutate] of schemaBroken) {
  const d = clone();
  mutate(d);
  let problems = [];
  for (const o of d) problems = problems.concat(await schemaProblems(o));
  report(problems.length > 0, `schema catches: ${what}`, 'no schema error');
}

finish('k8s');
