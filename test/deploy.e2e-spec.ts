/**
 * The deployment files as an operator receives them (issue 9): the Kubernetes manifests rendered by
 * `kubectl kustomize`, docker-compose.yml with .env.example, the Dockerfile and its entry point, and
 * the dashboard and alerts of ops/. No cluster and no Docker engine here, so the files are checked
 * against what the apps really do: the environment they build is fed to the apps' own config
 * loaders, the KEDA list is the key BullMQ really writes on the test Redis, the entry point is run,
 * and every metric the dashboard and alerts query is one the apps' registry defines.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parser as promqlParser } from '@prometheus-io/lezer-promql';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { FILE_STATES, Metrics, QUEUE_STATES } from '@ppfile/infra';
import { QUEUE_NAMES } from '@ppfile/jobs';
import { loadGatewayConfig } from '../apps/gateway/src/config';
import { loadWorkerConfig } from '../apps/worker/src/config';
import { databaseUrl, dropDatabase, randomDatabaseName } from './support/database';
import { assertBuilt } from './support/worker';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const ENTRYPOINT = path.join(ROOT, 'docker', 'entrypoint.sh');
const CLI_BUILT = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
const REDIS_URL = process.env.PPFILE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** SHUTDOWN_GRACE_SECONDS when nothing sets it (libs/config). */
const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25;
/** The job outcomes the worker counts (libs/infra observability/metrics.ts, JobOutcome). */
const JOB_OUTCOMES = ['completed', 'failed', 'retried'];
/** Labels Prometheus adds to every scraped series (the Prometheus Operator's target labels). */
const TARGET_LABELS = ['namespace', 'pod', 'job', 'instance', 'container', 'service', 'endpoint'];

// ---------------------------------------------------------------------------------------------------
// What the apps read

/**
 * The environment variables an app reads: the variables its environment class declares (its
 * config.ts, over libs/config's shared classes: `PORT = 3000;`, `OPERATOR_USER?: string;`), the names
 * quoted there and the `env.X` it reads directly. STYLE.md: nothing else reads process.env.
 */
function variablesReadBy(app: 'gateway' | 'worker'): Set<string> {
  const names = new Set<string>();
  for (const file of [`apps/${app}/src/config.ts`, 'libs/config/src/services-environment.ts']) {
    const text = read(file);
    for (const m of text.matchAll(/^ {2}([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)[?!]?(?::| =)/gm)) names.add(m[1]!);
    for (const m of text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|PORT)'/g)) names.add(m[1]!);
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
  }
  return names;
}
const GATEWAY_READS = variablesReadBy('gateway');
const WORKER_READS = variablesReadBy('worker');

/** Values for the secrets that manifests and compose leave to the operator, shaped as the apps expect. */
function secretValue(key: string): string {
  if (key === 'PAYLOAD_ENCRYPTION_KEY') return randomBytes(32).toString('base64');
  return randomBytes(16).toString('hex');
}

// ---------------------------------------------------------------------------------------------------
// Kubernetes: rendering and reading the objects

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
    seccompProfile?: { type: string };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: Container['securityContext'];
  volumes?: { name: string; emptyDir?: object }[];
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: PodSpec;
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  // Each kind reads its own fields; the tests check their presence before use.
  spec?: {
    replicas?: number;
    selector?: LabelSelector & Record<string, string>;
    template?: PodTemplate;
    jobTemplate?: { spec: { template: PodTemplate } };
    backoffLimit?: number;
    ttlSecondsAfterFinished?: number;
    ports?: { name?: string; port: number; targetPort?: number | string }[];
    scaleTargetRef?: { apiVersion?: string; kind?: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    minReplicaCount?: number;
    maxReplicaCount?: number;
    metrics?: { type: string; resource?: { name: string } }[];
    triggers?: {
      type: string;
      metadata: Record<string, string>;
      authenticationRef?: { name: string };
    }[];
    secretTargetRef?: { parameter: string; name: string; key: string }[];
    endpoints?: {
      port?: string;
      path?: string;
      basicAuth?: { username: { name: string; key: string }; password: { name: string; key: string } };
    }[];
    groups?: unknown[];
    podSelector?: LabelSelector;
    tls?: { hosts: string[]; secretName: string }[];
    rules?: {
      host?: string;
      http: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] };
    }[];
  };
}

/** `kubectl kustomize DIR`, parsed; a missing kubectl fails with instructions rather than a stack. */
function kustomize(dir: string): K8sObject[] {
  const r = spawnSync('kubectl', ['kustomize', dir], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(
      'kubectl is not installed: these tests render k8s/ with `kubectl kustomize` (offline, no cluster ' +
        'needed). Install kubectl (https://kubernetes.io/docs/tasks/tools/) and run them again.',
    );
  }
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir} failed (${r.status}):\n${r.stderr}`);
  return parseAllDocuments(r.stdout).map((doc) => {
    const [first] = doc.errors;
    if (first) throw new Error(first.message);
    return doc.toJS() as K8sObject;
  });
}

function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

function one(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) {
    const names = ofKind(objects, kind).map((o) => o.metadata.name);
    throw new Error(
      `expected one ${kind} named ${name}, found ${found.length} (${kind}: ${names.join(', ') || 'none'})`,
    );
  }
  return found[0]!;
}

/** The Deployment (or Job) whose pods run the image with this first argument (the role). */
function workloadOfRole(objects: K8sObject[], kind: string, role: string): K8sObject {
  const found = workloadsOfRole(objects, kind, role);
  if (found.length !== 1)
    throw new Error(`expected one ${kind} running the role "${role}", found ${found.length}`);
  return found[0]!;
}

function workloadsOfRole(objects: K8sObject[], kind: string, role: string): K8sObject[] {
  return ofKind(objects, kind).filter((o) =>
    o.spec?.template?.spec.containers.some((c) => c.args?.[0] === role),
  );
}

/**
 * The worker pools (issue 35): each Deployment of the `worker` role by the queues its WORKER_QUEUES
 * takes, in libs/jobs QUEUES order as the worker reads them.
 */
function workerPools(objects: K8sObject[]): Map<string, K8sObject> {
  const pools = new Map<string, K8sObject>();
  for (const w of workloadsOfRole(objects, 'Deployment', 'worker')) {
    const value = podSpec(w).containers[0]!.env?.find((e) => e.name === 'WORKER_QUEUES')?.value;
    if (!value) throw new Error(`${w.metadata.name} sets no WORKER_QUEUES: every pool names its queues`);
    pools.set(loadWorkerConfig({ ...VALID_WORKER_ENV, WORKER_QUEUES: value }).queues.join(','), w);
  }
  return pools;
}

/** The variables the worker requires, set to anything valid: only WORKER_QUEUES is read from them. */
const VALID_WORKER_ENV = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
  PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

function podSpec(workload: K8sObject): PodSpec {
  const spec = workload.spec?.template?.spec ?? workload.spec?.jobTemplate?.spec.template.spec;
  if (!spec) throw new Error(`${workload.kind} ${workload.metadata.name} has no pod template`);
  return spec;
}

function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return (
    !!selector &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([k, v]) => labels[k] === v)
  );
}

/** A probe's or Service's port, resolved through the container's named ports. */
function portNumber(container: Container, port: number | string | undefined): number {
  if (typeof port === 'number') return port;
  const named = container.ports?.find((p) => p.name === port);
  if (!named) throw new Error(`container ${container.name} has no port named ${port}`);
  return named.containerPort;
}

/** The ConfigMap of the settings (generated with a hash suffix). */
function settings(objects: K8sObject[]): K8sObject {
  const maps = ofKind(objects, 'ConfigMap').filter((o) => o.metadata.name.startsWith('ppfile-config'));
  if (maps.length !== 1) throw new Error(`expected one ConfigMap ppfile-config-<hash>, found ${maps.length}`);
  return maps[0]!;
}

const SECRET_EXAMPLE = parseEnvFile(read('k8s/secret.example.env'));

/**
 * The environment a container starts with: its ConfigMaps, its literal values, and for each secret
 * key a value shaped like the one the operator creates from k8s/secret.example.env.
 */
function containerEnvironment(objects: K8sObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  const secretSample = (key: string): string => {
    const example = SECRET_EXAMPLE.get(key);
    if (example === undefined) throw new Error(`secret key ${key} is not in k8s/secret.example.env`);
    return key === 'PAYLOAD_ENCRYPTION_KEY'
      ? secretValue(key)
      : example.value.replace(/CHANGE_ME/g, secretValue(key));
  };
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, one(objects, 'ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) for (const key of SECRET_EXAMPLE.keys()) env[key] = secretSample(key);
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) env[e.name] = secretSample(e.valueFrom.secretKeyRef.key);
    else if (e.valueFrom?.configMapKeyRef) {
      env[e.name] = one(objects, 'ConfigMap', e.valueFrom.configMapKeyRef.name).data![
        e.valueFrom.configMapKeyRef.key
      ]!;
    }
  }
  return env;
}

/** The preStop delay, in seconds (an exec of sleep or the kubelet's sleep action), 0 without one. */
function preStopSeconds(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  const sleep = command.findIndex((c) => /(^|\/)sleep$/.test(c));
  return sleep >= 0 ? Number(command[sleep + 1]) : 0;
}

function shutdownGrace(config: K8sObject): number {
  const raw = config.data?.SHUTDOWN_GRACE_SECONDS;
  return raw ? Number(raw) : DEFAULT_SHUTDOWN_GRACE_SECONDS;
}

// ---------------------------------------------------------------------------------------------------
// Files in the repository

interface EnvEntry {
  value: string;
  /** The comment lines just above the variable. */
  comment: string[];
}

/** A dotenv file: NAME=value lines, each with the comment block above it (shared by adjacent lines). */
function parseEnvFile(text: string): Map<string, EnvEntry> {
  const entries = new Map<string, EnvEntry>();
  let comment: string[] = [];
  let afterVariable = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      if (afterVariable) comment = [];
      comment.push(line.replace(/^#\s?/, ''));
      afterVariable = false;
    } else if (line.trim() === '') {
      comment = [];
      afterVariable = false;
    } else {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (!m) throw new Error(`not NAME=value: ${line}`);
      entries.set(m[1]!, { value: m[2]!, comment });
      afterVariable = true;
    }
  }
  return entries;
}

/** `# Generate: openssl rand -hex 32` above a secret, run the way the comment says. */
function generateAsDocumented(name: string, entry: EnvEntry): string {
  const m = entry.comment.map((c) => /^Generate: openssl rand -(hex|base64) (\d+)$/.exec(c)).find(Boolean);
  if (!m) throw new Error(`.env.example: ${name} is required but says not how to generate it`);
  return randomBytes(Number(m[2])).toString(m[1] as 'hex' | 'base64');
}

/** Compose's interpolation of one string: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, $$. */
function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (
      all,
      braced: string | undefined,
      op: string | undefined,
      arg: string | undefined,
      bare: string | undefined,
    ) => {
      if (all === '$$') return '$';
      const name = (braced ?? bare)!;
      const value = vars[name];
      const unsetOrEmpty = value === undefined || value === '';
      if (op === ':-') return unsetOrEmpty ? arg! : value;
      if (op === '-') return value === undefined ? arg! : value;
      if ((op === ':?' && unsetOrEmpty) || (op === '?' && value === undefined)) {
        throw new Error(`docker compose would refuse to start: ${name}: ${arg}`);
      }
      return value ?? '';
    },
  );
}

function interpolateDeep(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDeep(v, vars)]));
  }
  return value;
}

/** The variables compose substitutes, with whether a missing one stops it (`:?`). */
function composeVariables(text: string): Map<string, { required: boolean }> {
  const vars = new Map<string, { required: boolean }>();
  const unescaped = text.replace(/\$\$/g, '');
  for (const m of unescaped.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])?/g)) {
    const required = m[2] === ':?' || m[2] === '?';
    vars.set(m[1]!, { required: required || (vars.get(m[1]!)?.required ?? false) });
  }
  for (const m of unescaped.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g))
    if (!vars.has(m[1]!)) vars.set(m[1]!, { required: false });
  return vars;
}

interface HealthCheck {
  test?: string[] | string;
  disable?: boolean;
}
interface ComposeService {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  networks?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: HealthCheck;
  deploy?: { replicas?: number };
  restart?: string;
  stop_grace_period?: string;
  read_only?: boolean;
  cap_drop?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  networks?: Record<string, { internal?: boolean } | null>;
}

/** A compose duration ("35s", "1m30s") in seconds. */
function durationSeconds(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/(\d+)(h|m|s)/g))
    total += Number(m[1]) * { h: 3600, m: 60, s: 1 }[m[2] as 'h' | 'm' | 's'];
  return total;
}

interface Stage {
  base: string;
  name?: string;
  instructions: { op: string; args: string }[];
}

/** The Dockerfile's stages: FROM … AS name, then its instructions (continuation lines joined). */
function dockerStages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op!.toUpperCase() === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ base: m[1]!, name: m[2], instructions: [] });
    } else if (stages.length) stages[stages.length - 1]!.instructions.push({ op: op!.toUpperCase(), args });
  }
  return stages;
}

/**
 * The major version of the Node.js line production runs: .ci/run's NODE_PRODUCTION, the node CI runs
 * the whole suite with (docs/decisions.md, "Node.js lines").
 */
function productionNodeLine(): number {
  const version = /^NODE_PRODUCTION=(\d+)\.\d+\.\d+$/m.exec(read('.ci/run'));
  if (!version) throw new Error('.ci/run sets no NODE_PRODUCTION=<major>.<minor>.<patch>');
  return Number(version[1]);
}

// ---------------------------------------------------------------------------------------------------
// PromQL

interface PromqlFacts {
  metrics: string[];
  labels: string[];
  /** Label matchers with their metric: `state="waiting"` on ppfile_queue_jobs. */
  matchers: { metric: string; label: string; op: string; value: string }[];
}

/** Parses one expression (Prometheus' own grammar); a syntax error fails with the expression. */
function promql(expr: string): PromqlFacts {
  const tree = promqlParser.parse(expr);
  const facts: PromqlFacts = { metrics: [], labels: [], matchers: [] };
  const text = (n: { from: number; to: number }): string => expr.slice(n.from, n.to);
  tree.iterate({
    enter: (ref) => {
      if (ref.type.isError) throw new Error(`PromQL syntax error at ${ref.from} in: ${expr}`);
      if (ref.name === 'LabelName') facts.labels.push(expr.slice(ref.from, ref.to));
      if (ref.name === 'VectorSelector') {
        const metric = ref.node.getChild('Identifier');
        const name = metric ? text(metric) : '';
        if (name) facts.metrics.push(name);
        for (const m of ref.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
          facts.matchers.push({
            metric: name,
            label: text(m.getChild('LabelName')!),
            op: text(m.getChild('MatchOp')!),
            value: JSON.parse(text(m.getChild('StringLiteral')!)) as string,
          });
        }
      }
    },
  });
  return facts;
}

const BUILTIN_GRAFANA_VARIABLES: Record<string, string> = {
  __rate_interval: '5m',
  __interval: '1m',
  __range: '6h',
};

// ---------------------------------------------------------------------------------------------------

describe.each(['k8s', 'k8s/base', 'k8s/overlays/example'])('kubectl kustomize %s', (dir) => {
  let objects: K8sObject[];
  let config: K8sObject;
  let gateway: K8sObject;
  let pools: Map<string, K8sObject>;
  let workers: K8sObject[];

  beforeAll(() => {
    objects = kustomize(dir);
    config = settings(objects);
    gateway = workloadOfRole(objects, 'Deployment', 'gateway');
    pools = workerPools(objects);
    workers = [...pools.values()];
  });

  it('renders the namespace ppfile and puts every object in it', () => {
    one(objects, 'Namespace', 'ppfile');
    const stray = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'ppfile');
    expect(stray.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
  });

  it('holds no Secret: the operator creates it (k8s/README.md), and nothing secret sits in plain values', () => {
    expect(ofKind(objects, 'Secret')).toEqual([]);
    const secretNames = [...SECRET_EXAMPLE.keys()];
    expect(Object.keys(config.data ?? {}).filter((k) => secretNames.includes(k))).toEqual([]);
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const c of allContainers(podSpec(workload))) {
        const plain = (c.env ?? []).filter(
          (e) => secretNames.includes(e.name) && e.valueFrom?.secretKeyRef === undefined,
        );
        expect(plain.map((e) => `${workload.metadata.name}/${c.name}: ${e.name}`)).toEqual([]);
      }
    }
  });

  it('reads only secret keys that k8s/secret.example.env documents', () => {
    const used = new Set<string>();
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const c of allContainers(podSpec(workload))) {
        for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) used.add(e.valueFrom.secretKeyRef.key);
      }
    }
    for (const auth of ofKind(objects, 'TriggerAuthentication'))
      for (const r of auth.spec!.secretTargetRef!) used.add(r.key);
    for (const monitor of ofKind(objects, 'ServiceMonitor')) {
      for (const e of monitor.spec!.endpoints!)
        if (e.basicAuth) used.add(e.basicAuth.username.key).add(e.basicAuth.password.key);
    }
    expect([...used].filter((k) => !SECRET_EXAMPLE.has(k))).toEqual([]);
    expect(used.size).toBeGreaterThan(0);
  });

  it('runs the migrations as a Job of the `migrate` role, retried a few times and cleaned up after', () => {
    const job = workloadOfRole(objects, 'Job', 'migrate');
    expect(job.spec!.backoffLimit).toBeGreaterThanOrEqual(1);
    expect(job.spec!.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(['Never', 'OnFailure']).toContain(podSpec(job).restartPolicy);
    const env = containerEnvironment(objects, podSpec(job).containers[0]!);
    expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  });

  it('runs one image for every role', () => {
    const images = new Set<string>();
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const c of allContainers(podSpec(workload))) images.add(c.image);
    }
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/^[^:\s]+(:[\w.-]+)?$/);
    // ppfile's image, built from ../Dockerfile (so on its NODE_IMAGE), never a node:… image of its own.
    expect([...images][0]!.split(':')[0]!.split('/').at(-1)).toBe('ppfile');
  });

  it('gives every container resource requests and limits, and runs it unprivileged on a read-only root', () => {
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      const spec = podSpec(workload);
      for (const c of allContainers(spec)) {
        const where = `${workload.kind} ${workload.metadata.name}/${c.name}`;
        for (const kind of ['requests', 'limits'] as const) {
          expect({ where, kind, cpu: c.resources?.[kind]?.cpu, memory: c.resources?.[kind]?.memory }).toEqual(
            {
              where,
              kind,
              cpu: expect.any(String),
              memory: expect.any(String),
            },
          );
        }
        const security = { ...spec.securityContext, ...c.securityContext };
        expect({ where, runAsNonRoot: security.runAsNonRoot }).toEqual({ where, runAsNonRoot: true });
        expect(security.runAsUser === undefined || security.runAsUser > 0).toBe(true);
        expect({ where, ...c.securityContext }).toMatchObject({
          where,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect({ where, seccomp: security.seccompProfile?.type }).toEqual({
          where,
          seccomp: 'RuntimeDefault',
        });
        // A read-only root needs a writable /tmp for whatever node or a library writes there.
        const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
        expect({ where, tmp: spec.volumes?.find((v) => v.name === tmp?.name)?.emptyDir }).toEqual({
          where,
          tmp: expect.any(Object),
        });
      }
    }
  });

  it('probes the gateway: readiness on /health/ready, liveness on /health/live, on the port PORT sets', () => {
    const c = podSpec(gateway).containers[0]!;
    const port = Number(config.data?.PORT ?? 3000);
    expect(c.readinessProbe?.httpGet?.path).toBe('/health/ready');
    expect(c.livenessProbe?.httpGet?.path).toBe('/health/live');
    expect(portNumber(c, c.readinessProbe!.httpGet!.port)).toBe(port);
    expect(portNumber(c, c.livenessProbe!.httpGet!.port)).toBe(port);
    if (c.startupProbe) expect(portNumber(c, c.startupProbe.httpGet!.port)).toBe(port);
  });

  it('gives the gateway time to leave the endpoints and drain: grace > preStop + SHUTDOWN_GRACE_SECONDS', () => {
    const c = podSpec(gateway).containers[0]!;
    const preStop = preStopSeconds(c);
    expect(preStop).toBeGreaterThanOrEqual(3);
    expect(podSpec(gateway).terminationGracePeriodSeconds).toBeGreaterThan(preStop + shutdownGrace(config));
  });

  it('serves the gateway through a Service on its pods, scaled by an HPA on CPU and kept by a PDB', () => {
    const pods = gateway.spec!.template!.metadata.labels;
    const c = podSpec(gateway).containers[0]!;
    const services = ofKind(objects, 'Service').filter((s) => selects(s.spec!.selector, pods));
    expect(services).toHaveLength(1);
    for (const p of services[0]!.spec!.ports!)
      expect(portNumber(c, p.targetPort ?? p.port)).toBe(Number(config.data?.PORT ?? 3000));

    const hpa = ofKind(objects, 'HorizontalPodAutoscaler');
    expect(hpa).toHaveLength(1);
    expect(hpa[0]!.apiVersion).toBe('autoscaling/v2');
    expect(hpa[0]!.spec!.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: gateway.metadata.name,
    });
    expect(hpa[0]!.spec!.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa[0]!.spec!.maxReplicas).toBeGreaterThan(hpa[0]!.spec!.minReplicas!);
    expect(hpa[0]!.spec!.metrics!.map((m) => m.resource?.name)).toContain('cpu');
    // The autoscaler owns the count: a `replicas` here would reset it at every apply.
    expect(gateway.spec!.replicas).toBeUndefined();

    const pdbs = ofKind(objects, 'PodDisruptionBudget').filter((p) =>
      selects(p.spec!.selector!.matchLabels, pods),
    );
    expect(pdbs).toHaveLength(1);
    for (const worker of workers)
      expect(selects(pdbs[0]!.spec!.selector!.matchLabels, worker.spec!.template!.metadata.labels)).toBe(
        false,
      );
  });

  it('probes every worker on WORKER_HTTP_PORT and lets it finish its jobs before SIGKILL', () => {
    for (const worker of workers) {
      const c = podSpec(worker).containers[0]!;
      const port = Number(config.data?.WORKER_HTTP_PORT ?? 3001);
      expect(c.readinessProbe?.httpGet?.path).toBe('/health/ready');
      expect(c.livenessProbe?.httpGet?.path).toBe('/health/live');
      expect(portNumber(c, c.readinessProbe!.httpGet!.port)).toBe(port);
      expect(portNumber(c, c.livenessProbe!.httpGet!.port)).toBe(port);
      expect(podSpec(worker).terminationGracePeriodSeconds).toBeGreaterThan(
        shutdownGrace(config) + preStopSeconds(c),
      );
      expect(worker.spec!.replicas).toBeUndefined();
    }
  });

  it('runs the workers in two pools of one image: generate (with maintenance) and validate (issue 35)', () => {
    expect([...pools.keys()].sort()).toEqual(['generate,maintenance', 'validate']);
    // Every queue is some pool's, none is two pools'.
    expect([...pools.keys()].flatMap((k) => k.split(',')).sort()).toEqual([...QUEUE_NAMES].sort());
    // The same pod but for WORKER_QUEUES: the pools differ by the queues they take only.
    const [first, ...others] = workers.map((w) => {
      const pod = structuredClone(podSpec(w));
      pod.containers[0]!.env = pod.containers[0]!.env!.filter((e) => e.name !== 'WORKER_QUEUES');
      return pod;
    });
    for (const other of others) expect(other).toEqual(first);
    // Selectors that cannot overlap: each pool's replicas are its own.
    for (const w of workers)
      expect(
        workers.filter((o) => selects(w.spec!.selector!.matchLabels, o.spec!.template!.metadata.labels)),
      ).toEqual([w]);
  });

  it("scales each pool with its own KEDA ScaledObject on its own queue's waiting list, from 1 to 20", () => {
    const scaled = ofKind(objects, 'ScaledObject');
    const prefix = config.data?.QUEUE_PREFIX || 'bull';
    // Each pool's Deployment is the target of one ScaledObject, whose triggers read the waiting lists
    // of that pool's client queues only (maintenance, the sweep, is the always-running worker's): a
    // burst on one queue adds workers to its pool only.
    expect(scaled).toHaveLength(pools.size);
    for (const [queues, worker] of pools) {
      const mine = scaled.filter((o) => o.spec!.scaleTargetRef!.name === worker.metadata.name);
      expect({ queues, scaledObjects: mine.length }).toEqual({ queues, scaledObjects: 1 });
      const spec = mine[0]!.spec!;
      expect(spec.scaleTargetRef!.kind ?? 'Deployment').toBe('Deployment');
      expect(spec.minReplicaCount).toBe(1);
      expect(spec.maxReplicaCount).toBe(20);
      expect({ queues, lists: spec.triggers!.map((t) => t.metadata.listName) }).toEqual({
        queues,
        lists: queues
          .split(',')
          .filter((q) => q !== 'maintenance')
          .map((q) => `${prefix}:${q}:wait`),
      });
    }
    const triggers = scaled.flatMap((o) => o.spec!.triggers!);
    for (const t of triggers) {
      expect(t.type).toBe('redis');
      expect(Number(t.metadata.listLength)).toBeGreaterThan(0);
      expect(t.authenticationRef).toEqual(triggers[0]!.authenticationRef);
    }
    const trigger = triggers[0]!;
    // Where Redis is and its password come from the Secret, beside the apps' REDIS_URL: the same
    // server, its name qualified with our namespace (KEDA's operator resolves it from its own).
    const auth = one(objects, 'TriggerAuthentication', trigger.authenticationRef!.name);
    const params = new Map(auth.spec!.secretTargetRef!.map((r) => [r.parameter, r]));
    expect(params.get('address')).toMatchObject({ name: 'ppfile', key: 'REDIS_ADDRESS' });
    expect(params.get('password')).toMatchObject({ name: 'ppfile', key: 'REDIS_PASSWORD' });
    const redisUrl = new URL(SECRET_EXAMPLE.get('REDIS_URL')!.value);
    expect(SECRET_EXAMPLE.get('REDIS_ADDRESS')!.value).toBe(
      `${redisUrl.hostname}.${scaled[0]!.metadata.namespace}.svc:${redisUrl.port || 6379}`,
    );
    for (const t of triggers) expect(t.metadata.enableTLS).toBe(String(redisUrl.protocol === 'rediss:'));
  });

  it("an overlay's QUEUE_PREFIX reaches KEDA's list name (components/queue-prefix)", () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'ppfile-k8s-'));
    try {
      spawnSync('cp', ['-r', path.join(ROOT, 'k8s'), copy]);
      const edit = (file: string, from: string | RegExp, to: string) => {
        const at = path.join(copy, file);
        writeFileSync(at, readFileSync(at, 'utf8').replace(from, to));
      };
      // Where this render takes its settings: the base's config.env, or the example overlay's literals.
      if (dir === 'k8s/base') edit('k8s/base/config.env', /^QUEUE_PREFIX=.*$/m, 'QUEUE_PREFIX=acme');
      else
        edit(
          'k8s/overlays/example/kustomization.yaml',
          '- TRUST_PROXY=1',
          '- TRUST_PROXY=1\n      - QUEUE_PREFIX=acme',
        );
      const rendered = kustomize(path.join(copy, dir));
      expect(settings(rendered).data?.QUEUE_PREFIX).toBe('acme');
      expect(
        ofKind(rendered, 'ScaledObject')
          .flatMap((o) => o.spec!.triggers!.map((t) => t.metadata.listName))
          .sort(),
      ).toEqual(['acme:generate:wait', 'acme:validate:wait']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('has Prometheus scrape /metrics of both roles, each with the operator credentials', () => {
    const monitors = ofKind(objects, 'ServiceMonitor');
    const servicesOf = (w: K8sObject) =>
      ofKind(objects, 'Service').filter((s) => selects(s.spec!.selector, w.spec!.template!.metadata.labels));
    const monitorOf = (w: K8sObject) => {
      const services = servicesOf(w);
      const found = monitors.filter((m) =>
        services.some((s) => selects(m.spec!.selector!.matchLabels, s.metadata.labels ?? {})),
      );
      expect(found).toHaveLength(1);
      return {
        monitor: found[0]!,
        service: services.find((s) =>
          selects(found[0]!.spec!.selector!.matchLabels, s.metadata.labels ?? {}),
        )!,
      };
    };

    const gw = monitorOf(gateway);
    const gwEndpoint = gw.monitor.spec!.endpoints![0]!;
    expect(gwEndpoint.path).toBe('/metrics');
    expect(gwEndpoint.basicAuth).toEqual({
      username: { name: 'ppfile', key: 'OPERATOR_USER' },
      password: { name: 'ppfile', key: 'OPERATOR_PASSWORD' },
    });
    expect(gw.service.spec!.ports!.map((p) => p.name)).toContain(gwEndpoint.port);

    // Both pools under one Service and one monitor: Prometheus' job stays ppfile-worker for the alerts.
    for (const worker of workers) {
      const wk = monitorOf(worker);
      expect(wk.service.metadata.name).toBe('ppfile-worker');
      const wkEndpoint = wk.monitor.spec!.endpoints![0]!;
      expect(wkEndpoint.path).toBe('/metrics');
      expect(wkEndpoint.basicAuth).toEqual(gwEndpoint.basicAuth);
      const servicePort = wk.service.spec!.ports!.find((p) => p.name === wkEndpoint.port)!;
      expect(portNumber(podSpec(worker).containers[0]!, servicePort.targetPort ?? servicePort.port)).toBe(
        Number(config.data?.WORKER_HTTP_PORT ?? 3001),
      );
    }
  });

  it('alerts with the rules of ops/prometheus/alerts.yaml', () => {
    const rules = ofKind(objects, 'PrometheusRule');
    expect(rules).toHaveLength(1);
    expect(rules[0]!.spec!.groups).toEqual(
      (parseYaml(read('ops/prometheus/alerts.yaml')) as { groups: unknown[] }).groups,
    );
  });

  it('starts each role with an environment its config loader accepts, and sets no variable it ignores', () => {
    for (const [workload, load, reads] of [
      [gateway, loadGatewayConfig, GATEWAY_READS],
      ...workers.map((w) => [w, loadWorkerConfig, WORKER_READS] as const),
    ] as const) {
      const c = podSpec(workload).containers[0]!;
      const env = containerEnvironment(objects, c);
      expect(() => load(env)).not.toThrow();
      const own = (c.env ?? []).map((e) => e.name);
      expect(own.filter((name) => !reads.has(name))).toEqual([]);
    }
    const shared = Object.keys(config.data ?? {});
    expect(shared.filter((name) => !GATEWAY_READS.has(name) && !WORKER_READS.has(name))).toEqual([]);
  });

  if (dir !== 'k8s/base') {
    it('publishes the gateway through an Ingress with TLS, and trusts that one proxy only', () => {
      const ingresses = ofKind(objects, 'Ingress');
      expect(ingresses).toHaveLength(1);
      const ingress = ingresses[0]!.spec!;
      const service = ofKind(objects, 'Service').find((s) =>
        selects(s.spec!.selector, gateway.spec!.template!.metadata.labels),
      )!;
      for (const rule of ingress.rules!) {
        for (const p of rule.http.paths) {
          expect(p.backend.service.name).toBe(service.metadata.name);
          expect(service.spec!.ports!.map((x) => x.name)).toContain(p.backend.service.port.name);
        }
      }
      const hosts = ingress.rules!.map((r) => r.host);
      expect(ingress.tls!.flatMap((t) => t.hosts)).toEqual(hosts);
      expect(config.data!.PUBLIC_BASE_URL).toBe(`https://${hosts[0]}`);
      expect(
        loadGatewayConfig(containerEnvironment(objects, podSpec(gateway).containers[0]!)).trustProxy,
      ).toBe(1);
      const policies = ofKind(objects, 'NetworkPolicy').filter((p) =>
        selects(p.spec!.podSelector!.matchLabels, gateway.spec!.template!.metadata.labels),
      );
      expect(policies).toHaveLength(1);
    });
  }
});

describe('the KEDA lists', () => {
  it('are where BullMQ keeps the waiting jobs of each queue: `${prefix}:${queue}:wait`', async () => {
    const prefix = `ppfile_deploy_${randomBytes(4).toString('hex')}`;
    const url = new URL(REDIS_URL);
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    try {
      for (const name of QUEUE_NAMES) {
        const queue = new Queue(name, {
          connection: { host: url.hostname, port: Number(url.port || 6379) },
          prefix,
        });
        try {
          await queue.add('job', {});
          await queue.add('job', {});
          expect(await redis.llen(`${prefix}:${name}:wait`)).toBe(2);
        } finally {
          await queue.obliterate({ force: true });
          await queue.close();
        }
      }
    } finally {
      redis.disconnect();
    }
  });
});

describe('docker-compose.yml', () => {
  const text = read('docker-compose.yml');
  const compose = parseYaml(text, { merge: true }) as ComposeFile;
  const services = compose.services;
  const envExample = parseEnvFile(read('.env.example'));
  const variables = composeVariables(text);
  /** The worker pools (issue 35): one service each, the same image, WORKER_QUEUES choosing the queues. */
  const WORKERS = ['worker-generate', 'worker-validate'] as const;

  /** .env.example as an operator fills it: each empty required secret generated as its comment says. */
  function filledEnv(overrides: Record<string, string> = {}): Record<string, string> {
    const vars: Record<string, string> = {};
    for (const [name, entry] of envExample) {
      vars[name] =
        entry.value === '' && variables.get(name)?.required ? generateAsDocumented(name, entry) : entry.value;
    }
    return { ...vars, ...overrides };
  }

  it('runs the data stores, the one-shot bucket and migrations, the gateway and the workers', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'minio', 'migrate', 'gateway', ...WORKERS]),
    );
    expect(Object.keys(services)).not.toContain('worker');
    for (const [name, role] of [
      ['migrate', 'migrate'],
      ['gateway', 'gateway'],
      ...WORKERS.map((w) => [w, 'worker'] as const),
    ] as const) {
      expect({
        name,
        image: services[name]!.image,
        build: services[name]!.build,
        role: services[name]!.command?.[0],
      }).toEqual({
        name,
        image: 'ppfile:local',
        build: '.',
        role,
      });
    }
  });

  it('starts the gateway and the workers after the migrations succeeded and the stores are healthy', () => {
    for (const name of ['gateway', ...WORKERS]) {
      const deps = services[name]!.depends_on!;
      expect({ name, migrate: deps.migrate?.condition }).toEqual({
        name,
        migrate: 'service_completed_successfully',
      });
      expect({ name, postgres: deps.postgres?.condition, redis: deps.redis?.condition }).toEqual({
        name,
        postgres: 'service_healthy',
        redis: 'service_healthy',
      });
    }
    expect(services.migrate!.depends_on!.postgres?.condition).toBe('service_healthy');
  });

  it('health-checks every long-running service (one-shot services are those awaited to completion)', () => {
    const oneShot = new Set(
      Object.values(services).flatMap((s) =>
        Object.entries(s.depends_on ?? {})
          .filter(([, d]) => d.condition === 'service_completed_successfully')
          .map(([dep]) => dep),
      ),
    );
    expect([...oneShot].sort()).toEqual(['migrate', 'minio-init']);
    const unchecked = Object.entries(services).filter(
      ([name, s]) => !oneShot.has(name) && (!s.healthcheck?.test || s.healthcheck.disable === true),
    );
    expect(unchecked.map(([name]) => name)).toEqual([]);
    for (const name of oneShot)
      expect({ name, restart: services[name]!.restart }).toEqual({ name, restart: 'no' });
    expect(services.gateway!.healthcheck!.test).toEqual([
      'CMD',
      '/app/docker/entrypoint.sh',
      'healthcheck',
      'gateway',
    ]);
    for (const name of WORKERS)
      expect(services[name]!.healthcheck!.test).toEqual([
        'CMD',
        '/app/docker/entrypoint.sh',
        'healthcheck',
        'worker',
      ]);
  });

  it('runs a worker of each pool, each taking its own queues, and publishes the gateway only', () => {
    const queues = WORKERS.map((name) => {
      expect({ name, replicas: services[name]!.deploy?.replicas }).toEqual({ name, replicas: 1 });
      return loadWorkerConfig({
        ...VALID_WORKER_ENV,
        WORKER_QUEUES: services[name]!.environment!.WORKER_QUEUES,
      }).queues;
    });
    // As in k8s/: generate with maintenance (the sweep), validate alone; every queue some pool's, once.
    expect(queues).toEqual([['generate', 'maintenance'], ['validate']]);
    const vars = filledEnv();
    const published = Object.entries(services).filter(([, s]) => s.ports?.length);
    for (const [name, s] of published) {
      const ports = (interpolateDeep(s.ports, vars) as string[]).map((p) => p.split(':'));
      if (name === 'minio') for (const p of ports) expect(p[0]).toBe('127.0.0.1');
      else {
        expect(name).toBe('gateway');
        const env = interpolateDeep(s.environment, vars) as Record<string, string>;
        expect(ports.map((p) => p[p.length - 1])).toEqual([env.PORT]);
      }
    }
    expect(published.map(([name]) => name)).toContain('gateway');
  });

  it('keeps the stores on an internal network, Redis without persistence, the apps read-only', () => {
    expect(compose.networks?.data?.internal).toBe(true);
    for (const name of ['postgres', 'redis', 'minio', 'minio-init', 'migrate', ...WORKERS]) {
      expect({ name, networks: services[name]!.networks }).toEqual({ name, networks: ['data'] });
    }
    const redis = services.redis!.command!;
    expect(redis[redis.indexOf('--save') + 1]).toBe('');
    expect(redis[redis.indexOf('--appendonly') + 1]).toBe('no');
    expect(redis).toContain('--requirepass');
    expect(services.postgres!.environment!.POSTGRES_HOST_AUTH_METHOD).toBe('scram-sha-256');
    for (const name of ['migrate', 'gateway', ...WORKERS]) {
      expect({ name, readOnly: services[name]!.read_only, capDrop: services[name]!.cap_drop }).toEqual({
        name,
        readOnly: true,
        capDrop: ['ALL'],
      });
    }
  });

  it('lets the gateway and the workers drain: stop_grace_period > SHUTDOWN_GRACE_SECONDS', () => {
    const grace = Number(envExample.get('SHUTDOWN_GRACE_SECONDS')?.value || DEFAULT_SHUTDOWN_GRACE_SECONDS);
    for (const name of ['gateway', ...WORKERS]) {
      expect({ name, more: durationSeconds(services[name]!.stop_grace_period ?? '10s') > grace }).toEqual({
        name,
        more: true,
      });
    }
  });

  it('documents in .env.example every variable it substitutes, and nothing else', () => {
    expect([...variables.keys()].filter((v) => !envExample.has(v))).toEqual([]);
    expect([...envExample.keys()].filter((v) => !variables.has(v))).toEqual([]);
    for (const [name, entry] of envExample)
      expect({ name, explained: entry.comment.length > 0 }).toEqual({ name, explained: true });
    // Secrets are never filled in the example.
    for (const [name, { required }] of variables) {
      if (required && /PASSWORD|KEY/.test(name))
        expect({ name, value: envExample.get(name)!.value }).toEqual({ name, value: '' });
    }
  });

  it('refuses to start while a required secret is missing', () => {
    expect(() => interpolateDeep(compose, { ...filledEnv(), PAYLOAD_ENCRYPTION_KEY: '' })).toThrow(
      /PAYLOAD_ENCRYPTION_KEY/,
    );
    expect(() => interpolateDeep(compose, filledEnv())).not.toThrow();
  });

  it.each([
    ['as .env.example comes, secrets generated as documented', {}],
    [
      'with the operator pages open',
      { OPERATOR_USER: 'operator', OPERATOR_PASSWORD: randomBytes(32).toString('base64') },
    ],
  ])('gives each app an environment its config loader accepts (%s)', (_, overrides) => {
    const resolved = interpolateDeep(compose, filledEnv(overrides)) as ComposeFile;
    for (const [name, load, reads] of [
      ['gateway', loadGatewayConfig, GATEWAY_READS],
      ...WORKERS.map((w) => [w, loadWorkerConfig, WORKER_READS] as const),
      ['migrate', loadWorkerConfig, WORKER_READS],
    ] as const) {
      const env = resolved.services[name]!.environment!;
      expect({ name, ignored: Object.keys(env).filter((v) => !reads.has(v)) }).toEqual({ name, ignored: [] });
      if (name !== 'migrate') expect(() => load(env)).not.toThrow();
    }
    expect(resolved.services.migrate!.environment!.DATABASE_URL).toMatch(
      /^postgresql:\/\/postgres:[0-9a-f]+@postgres:5432\/ppfile$/,
    );
  });
});

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const final = stages[stages.length - 1]!;
  const finalOps = (op: string) => final.instructions.filter((i) => i.op === op).map((i) => i.args);

  it('builds in stages and generates the Prisma client and the apps in a build stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages
      .slice(0, -1)
      .flatMap((s) => s.instructions.filter((i) => i.op === 'RUN').map((i) => i.args));
    expect(build.some((r) => /npm run db:generate|prisma generate/.test(r))).toBe(true);
    expect(build.some((r) => /npm run build\b/.test(r))).toBe(true);
  });

  it('ships production dependencies only: the final node_modules come from an --omit=dev install', () => {
    const copy = finalOps('COPY').find((c) => /\/node_modules\s/.test(c))!;
    const from = /--from=(\S+)/.exec(copy)![1];
    const stage = stages.find((s) => s.name === from)!;
    const installs = stage.instructions.filter(
      (i) => i.op === 'RUN' && /npm (ci|install|prune)/.test(i.args),
    );
    expect(installs.length).toBeGreaterThan(0);
    expect(installs.at(-1)!.args).toMatch(/--omit=dev/);
    expect(finalOps('RUN').filter((r) => /npm (ci|install)/.test(r))).toEqual([]);
  });

  it('runs as a non-root user behind tini, with a health check and the entry point of the roles', () => {
    const user = finalOps('USER').at(-1);
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
    const entrypoint = JSON.parse(finalOps('ENTRYPOINT').at(-1)!) as string[];
    expect(entrypoint.slice(0, 2)).toEqual(['/usr/bin/tini', '--']);
    expect(entrypoint[2]).toBe('/app/docker/entrypoint.sh');
    expect(finalOps('RUN').some((r) => /apt-get install[^&]*\btini\b/.test(r))).toBe(true);
    expect(finalOps('HEALTHCHECK').at(-1)).toMatch(/CMD \["\/app\/docker\/entrypoint\.sh", "healthcheck"\]/);
    expect(JSON.parse(finalOps('CMD').at(-1)!)).toEqual(['gateway']);
  });

  it('copies into /app what the roles need: the build, the CLI, migrations, reference data, the entry point', () => {
    expect(finalOps('WORKDIR').at(-1)).toBe('/app');
    const copied = finalOps('COPY').map((c) =>
      c.split(/\s+/).at(-1)!.replace(/^\.\//, '').replace(/\/$/, ''),
    );
    expect(copied).toEqual(
      expect.arrayContaining([
        'package.json',
        'node_modules',
        'dist',
        'bin',
        'prisma',
        'reference-data',
        'docker/entrypoint.sh',
      ]),
    );
  });

  it('keeps local state, secrets and builds out of the context (.dockerignore)', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['**/node_modules', 'dist', '.git', '.env', '.ppfile', 'libs/db/src/generated']),
    );
  });

  it("builds every stage on NODE_IMAGE, by default an official slim image of production's Node.js line", () => {
    // The one Node.js line of production (docs/decisions.md, "Node.js lines"): .ci/run runs the whole
    // suite on it, package.json's engines admits it; compose and k8s run this image (their own tests).
    expect(stages.map((s) => s.base)).toEqual(stages.map(() => '${NODE_IMAGE}'));
    const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'));
    expect(arg?.[1]).toMatch(/^node:\d+-[a-z]+-slim$/);
    expect(Number(/^node:(\d+)-/.exec(arg![1]!)![1])).toBe(productionNodeLine());
  });

  it("is a line package.json's engines admits", () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const ranges = engines.split('||').map((r) => r.trim());
    expect(ranges).toContain(`^${productionNodeLine()}`);
  });
});

describe('docker/entrypoint.sh', () => {
  let fakeBin = '';
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  /** `node X args` of a package.json script, with the path made absolute. */
  const scriptCommand = (name: string): string[] => {
    const [node, file, ...args] = scripts[name]!.split(' ');
    expect(node).toBe('node');
    return [path.join(ROOT, file!), ...args];
  };

  beforeAll(() => {
    // A `node` that prints its arguments, one per line: the dispatch is observed without running an app.
    fakeBin = mkdtempSync(path.join(os.tmpdir(), 'ppfile-entrypoint-'));
    writeFileSync(path.join(fakeBin, 'node'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(path.join(fakeBin, 'node'), 0o755);
  });
  afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

  function dispatch(args: string[]): string[] {
    const r = spawnSync(ENTRYPOINT, args, {
      env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    if (r.error) throw r.error;
    expect(r.status).toBe(0);
    return r.stdout.trimEnd().split('\n');
  }

  it('runs the apps and the migrator as package.json does, and anything else as the CLI', () => {
    expect(dispatch(['gateway'])).toEqual(scriptCommand('start:gateway'));
    expect(dispatch([])).toEqual(scriptCommand('start:gateway'));
    expect(dispatch(['worker'])).toEqual(scriptCommand('start:worker'));
    expect(dispatch(['migrate'])).toEqual(scriptCommand('db:migrate'));
    expect(dispatch(['admin', 'usage', '--org', 'org x'])).toEqual([
      path.join(ROOT, 'bin', 'ppfile.js'),
      'admin',
      'usage',
      '--org',
      'org x',
    ]);
  });

  describe('healthcheck', () => {
    const servers: Server[] = [];
    async function serve(status: number): Promise<number> {
      const server = createServer((req, res) => {
        res.writeHead(req.url === '/health/live' ? status : 404).end();
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    }
    afterAll(async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    });
    /** The exit status; asynchronous, so that the servers of this process can answer meanwhile. */
    function check(args: string[], env: Record<string, string>): Promise<number | null> {
      return new Promise((resolve, reject) => {
        const child = spawn(ENTRYPOINT, ['healthcheck', ...args], {
          env: { ...process.env, ...env },
          stdio: 'ignore',
        });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });
    }

    it("exits 0 only when the role's /health/live answers 200", async () => {
      const live = await serve(200);
      const sick = await serve(503);
      const closed = await serve(200);
      await new Promise((resolve) => servers.pop()!.close(resolve));
      expect(await check(['gateway'], { PORT: String(live) })).toBe(0);
      expect(await check(['gateway'], { PORT: String(sick) })).toBe(1);
      expect(await check(['gateway'], { PORT: String(closed) })).toBe(1);
      expect(await check(['worker'], { WORKER_HTTP_PORT: String(live), PORT: String(sick) })).toBe(0);
      expect(await check(['worker'], { WORKER_HTTP_PORT: String(sick), PORT: String(live) })).toBe(1);
      // The image's HEALTHCHECK knows no role: either port answering is the process of this container.
      expect(await check([], { PORT: String(closed), WORKER_HTTP_PORT: String(live) })).toBe(0);
      expect(await check([], { PORT: String(closed), WORKER_HTTP_PORT: String(sick) })).toBe(1);
    }, 60_000);
  });

  describe('with the real node', () => {
    let database = '';
    beforeAll(() => {
      assertBuilt('cli', CLI_BUILT);
    }, 180_000);
    afterAll(async () => {
      if (database) await dropDatabase(database);
    });

    it('runs the command line from another working directory', () => {
      const r = spawnSync(ENTRYPOINT, ['--help'], { cwd: os.tmpdir(), encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('ppfile admin db migrate');
    });

    it('migrates a new database with `migrate`', async () => {
      database = randomDatabaseName();
      const url = databaseUrl(database);
      const r = spawnSync(ENTRYPOINT, ['migrate'], {
        cwd: os.tmpdir(),
        env: { ...process.env, DATABASE_URL: url },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      const migrations = await appliedMigrations(url);
      expect(migrations.length).toBeGreaterThan(0);
      expect(r.stdout.trim().split('\n')).toEqual(migrations.map((m) => `applied ${m}`));
      // Again: nothing left to apply, still exit 0 (a re-created Job or a second runner is harmless).
      const again = spawnSync(ENTRYPOINT, ['migrate'], {
        env: { ...process.env, DATABASE_URL: url },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(again.status).toBe(0);
      expect(await appliedMigrations(url)).toEqual(migrations);
    }, 120_000);
  });
});

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ migration_name: string }>(
      'SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL ORDER BY "migration_name"',
    );
    return rows.rows.map((r) => r.migration_name);
  } finally {
    await client.end();
  }
}

describe('ops/: the dashboard and the alerts query metrics the apps export', () => {
  /** Every series name the apps' registry exposes, with its labels (histograms as _bucket, _sum, _count). */
  const exported = new Map<string, Set<string>>();
  beforeAll(async () => {
    const metrics = new Metrics();
    for (const m of await metrics.registry.getMetricsAsJSON()) {
      // prom-client's declarations omit labelNames, which every metric object carries.
      const own =
        (metrics.registry.getSingleMetric(m.name) as unknown as { labelNames?: readonly string[] })
          .labelNames ?? [];
      const labels = new Set([...TARGET_LABELS, ...own]);
      if (String(m.type) === 'histogram') {
        exported.set(`${m.name}_bucket`, new Set([...labels, 'le']));
        exported.set(`${m.name}_sum`, labels);
        exported.set(`${m.name}_count`, labels);
      } else exported.set(m.name, labels);
    }
    exported.set('up', new Set(TARGET_LABELS));
    metrics.registry.clear();
  });

  const dashboard = JSON.parse(read('ops/grafana/ppfile.json')) as {
    templating: { list: { name: string; type: string; query: unknown }[] };
    panels: {
      type: string;
      title: string;
      datasource?: { uid: string };
      targets?: { expr: string; datasource?: { uid: string } }[];
      panels?: unknown[];
    }[];
  };
  const variables = new Map(dashboard.templating.list.map((v) => [v.name, v]));
  const panels = dashboard.panels
    .flatMap((p) => [p, ...((p.panels ?? []) as typeof dashboard.panels)])
    .filter((p) => p.type !== 'row');
  const alertRules = (
    parseYaml(read('ops/prometheus/alerts.yaml')) as {
      groups: { name: string; rules: Record<string, unknown>[] }[];
    }
  ).groups.flatMap((g) => g.rules);

  /** Grafana's variables replaced the way Grafana would (regex variables by a regex). */
  function withVariables(expr: string): string {
    return expr.replace(/\$(\w+)/g, (_, name: string) => {
      if (BUILTIN_GRAFANA_VARIABLES[name]) return BUILTIN_GRAFANA_VARIABLES[name];
      const variable = variables.get(name);
      if (!variable) throw new Error(`undefined dashboard variable $${name} in: ${expr}`);
      return variable.type === 'textbox' ? String(variable.query) : '.*';
    });
  }

  function checkExpression(expr: string): void {
    const facts = promql(expr);
    expect(facts.metrics.length).toBeGreaterThan(0);
    const unknown = facts.metrics.filter((m) => !exported.has(m));
    expect({ expr, unknown }).toEqual({ expr, unknown: [] });
    const labels = new Set(facts.metrics.flatMap((m) => [...exported.get(m)!]));
    expect({ expr, unknownLabels: facts.labels.filter((l) => !labels.has(l)) }).toEqual({
      expr,
      unknownLabels: [],
    });
    for (const m of facts.matchers) {
      const values =
        m.op === '=' ? [m.value] : m.op === '=~' && /^[\w|-]+$/.test(m.value) ? m.value.split('|') : [];
      const allowed =
        m.label === 'state' && m.metric === 'ppfile_queue_jobs'
          ? [...QUEUE_STATES]
          : m.label === 'state' && m.metric === 'ppfile_files'
            ? [...FILE_STATES]
            : m.label === 'outcome'
              ? JOB_OUTCOMES
              : m.label === 'job'
                ? ['ppfile-gateway', 'ppfile-worker']
                : null;
      if (allowed)
        expect({ expr, label: m.label, unknownValues: values.filter((v) => !allowed.includes(v)) }).toEqual({
          expr,
          label: m.label,
          unknownValues: [],
        });
    }
  }

  it('has a Prometheus data source variable that every panel uses', () => {
    expect(variables.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(panels.length).toBeGreaterThan(10);
    for (const p of panels) {
      expect({ panel: p.title, uid: p.datasource?.uid }).toEqual({ panel: p.title, uid: '${datasource}' });
      expect(p.targets?.length).toBeGreaterThan(0);
      for (const t of p.targets!) expect(t.datasource?.uid).toBe('${datasource}');
    }
  });

  it('queries, in every panel, exported metrics with their own labels and values, in valid PromQL', () => {
    for (const p of panels) for (const t of p.targets!) checkExpression(withVariables(t.expr));
  });

  it('alerts on the backlog, failed jobs, 5xx answers, dependencies down and targets down', () => {
    const queried = alertRules.map((r) => String(r.expr));
    expect(queried.some((e) => /ppfile_queue_jobs\{state="waiting"\}/.test(e))).toBe(true);
    expect(queried.some((e) => /ppfile_jobs_total\{outcome="failed"\}/.test(e))).toBe(true);
    expect(queried.some((e) => /ppfile_http_request_duration_seconds_count\{status=~"5\.\."\}/.test(e))).toBe(
      true,
    );
    expect(queried.some((e) => /ppfile_dependency_up/.test(e))).toBe(true);
    expect(queried.some((e) => /\bup\{/.test(e))).toBe(true);
    for (const rule of alertRules) {
      expect(rule).toMatchObject({
        alert: expect.stringMatching(/^Ppfile\w+$/),
        expr: expect.any(String),
        for: expect.stringMatching(/^\d+[smh]$/),
        labels: { severity: expect.stringMatching(/^(warning|critical)$/) },
        annotations: { summary: expect.any(String), description: expect.any(String) },
      });
      checkExpression(String(rule.expr));
    }
    expect(new Set(alertRules.map((r) => r.alert)).size).toBe(alertRules.length);
  });

  it('rejects what it should: an unknown metric, an unknown label, a bad value, broken syntax', () => {
    expect(() => checkExpression('sum(rate(ppfile_jobs_totl[5m]))')).toThrow();
    expect(() => checkExpression('sum by (outcom) (rate(ppfile_jobs_total[5m]))')).toThrow();
    expect(() => checkExpression('max(ppfile_queue_jobs{state="wait"})')).toThrow();
    expect(() => checkExpression('sum(rate(ppfile_jobs_total[5m])')).toThrow(/syntax/);
  });
});
