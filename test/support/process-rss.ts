import { readdirSync, readFileSync } from "node:fs";

type ReadText = (path: string) => string;
const readText: ReadText = (path) => readFileSync(path, "utf8");

/** pid → parent pid for every process (Linux /proc). */
export function parentMap(
  read: ReadText = readText,
  list: () => string[] = () => readdirSync("/proc"),
): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of list()) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = read(`/proc/${entry}/stat`);
      // The command name is in parentheses and may contain spaces: fields start after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  return parents;
}

/** The root and all its descendants. */
export function processTree(root: number, parents: Map<number, number>): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  }
  return tree;
}

/** VmRSS of one process in KiB, 0 when it is gone. */
export function vmRssKiB(pid: number, read: ReadText = readText): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Resident memory of a process tree in MiB (sum of VmRSS; shared pages are counted once per process). */
export function treeRssMiB(root: number, read: ReadText = readText, list?: () => string[]): number {
  const pids = processTree(root, parentMap(read, list));
  return pids.reduce((sum, pid) => sum + vmRssKiB(pid, read), 0) / 1024;
}

/** Samples a process tree's RSS every `intervalMs` and keeps the peak. */
export function startRssSampler(root: number, intervalMs = 200) {
  let peak = 0;
  let sincePeak = 0;
  let samples = 0;
  const sample = () => {
    const mib = treeRssMiB(root);
    samples++;
    if (mib > peak) peak = mib;
    if (mib > sincePeak) sincePeak = mib;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    peakMiB: () => (samples ? peak : null),
    samples: () => samples,
    /** The peak since the previous call (per scenario), then starts over. */
    takePeakSince(): number {
      sample();
      const value = sincePeak;
      sincePeak = 0;
      return value;
    },
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds (user + system) used so far by a process and its descendants (Linux /proc). */
export function treeCpuSeconds(
  root: number,
  read: ReadText = readText,
  list: () => string[] = () => readdirSync("/proc"),
): number {
  let ticks = 0;
  for (const pid of processTree(root, parentMap(read, list))) {
    try {
      const stat = read(`/proc/${pid}/stat`);
      // utime and stime are fields 14 and 15 of /proc/<pid>/stat (12 and 13 after the command name).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS_PER_S;
}
