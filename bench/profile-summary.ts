/**
 * Sums a V8 .cpuprofile (node --cpu-prof; BENCH_CPU_PROF=DIR npm run bench:http writes the
 * gateway's): self time per function, per file and per package, and the inclusive time per
 * function (a sample counts once for every distinct function on its stack), each with its share
 * of the profile's busy time (all samples but `(idle)`).
 *
 *   node dist/cli/bench/profile-summary.js FILE.cpuprofile [--top N] [--last S] [--match TEXT]
 *
 * `--last S` keeps only the samples of the profile's last S seconds (the gateway's measured load in
 * bench:http is its last 10 s before it is stopped; its start — loading code — comes first).
 * `--match TEXT` also prints the inclusive time of the functions whose name or file holds TEXT, and
 * the stacks (the 7 frames above) that the self time of those functions came from.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** `node_modules/@scope/name` or `node_modules/name` (the last one on the path), `node:…`, or the project's own folder. */
export function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:')) return 'node (internal)';
  const own =
    /\/dist\/apps\/[^/]+\/((?:apps|libs)\/[^/]+)\//.exec(url) ?? /\/((?:apps|libs|bench)\/[^/]+)\//.exec(url);
  return own ? own[1]! : url;
}

function shortFile(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + 14);
  const own = /\/dist\/apps\/[^/]+\/(.*)$/.exec(url);
  return own ? own[1]! : url.replace(/^file:\/\//, '');
}

export interface Summary {
  busyMs: number;
  idleMs: number;
  selfByFunction: Map<string, number>;
  selfByFile: Map<string, number>;
  selfByPackage: Map<string, number>;
  inclusiveByFunction: Map<string, number>;
  /** Self time of the functions matching `match`, by the 7 frames above them. */
  callersOfMatch: Map<string, number>;
}

export function summarize(profile: Profile, lastSeconds = Infinity, match?: string): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fnKey = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const s: Summary = {
    busyMs: 0,
    idleMs: 0,
    selfByFunction: new Map(),
    selfByFile: new Map(),
    selfByPackage: new Map(),
    inclusiveByFunction: new Map(),
    callersOfMatch: new Map(),
  };
  const from = profile.endTime - lastSeconds * 1e6;
  let at = profile.startTime;
  // timeDeltas[i] is the time before sample i; the time of sample i is the next delta (as DevTools).
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (at < from) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') {
      s.idleMs += ms;
      continue;
    }
    s.busyMs += ms;
    add(s.selfByFunction, fnKey(node), ms);
    add(s.selfByFile, node.callFrame.url ? shortFile(node.callFrame.url) : node.callFrame.functionName, ms);
    add(s.selfByPackage, packageOf(node.callFrame.url, node.callFrame.functionName), ms);
    if (match && fnKey(node).includes(match)) {
      const frames: string[] = [];
      for (let id = parent.get(node.id); id !== undefined && frames.length < 7; id = parent.get(id))
        frames.push(fnKey(byId.get(id)!));
      add(s.callersOfMatch, `${fnKey(node)} ⟵ ${frames.join(' ⟵ ')}`, ms);
    }
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const key = fnKey(byId.get(id)!);
      if (!seen.has(key)) {
        seen.add(key);
        add(s.inclusiveByFunction, key, ms);
      }
    }
  }
  return s;
}

function table(
  title: string,
  m: Map<string, number>,
  busy: number,
  top: number,
  filter?: (k: string) => boolean,
) {
  const rows = [...m].filter(([k]) => !filter || filter(k)).sort((a, b) => b[1] - a[1]);
  console.log(`\n${title}`);
  for (const [k, v] of rows.slice(0, top))
    console.log(`${((v / busy) * 100).toFixed(1).padStart(6)} %  ${v.toFixed(0).padStart(7)} ms  ${k}`);
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && !/^--(top|last|match)$/.test(args[i - 1] ?? ''));
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  if (!file) {
    console.error('usage: profile-summary FILE.cpuprofile [--top N] [--last S] [--match TEXT]');
    process.exit(2);
  }
  const top = Number(option('--top') ?? 25);
  const match = option('--match');
  const s = summarize(
    JSON.parse(readFileSync(file, 'utf8')) as Profile,
    Number(option('--last') ?? Infinity),
    match,
  );
  console.log(
    `${file}: busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms (shares are of busy time)`,
  );
  table('self time per package', s.selfByPackage, s.busyMs, top);
  table('self time per file', s.selfByFile, s.busyMs, top);
  table('self time per function', s.selfByFunction, s.busyMs, top);
  table('inclusive time per function', s.inclusiveByFunction, s.busyMs, top);
  if (match) table(`self time of "${match}" by caller`, s.callersOfMatch, s.busyMs, top);
  if (match)
    table(`inclusive time, functions matching "${match}"`, s.inclusiveByFunction, s.busyMs, top, (k) =>
      k.includes(match),
    );
}

if (require.main === module) main();
