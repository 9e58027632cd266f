import { describe, expect, it } from "vitest";
import { parentMap, processTree, treeCpuSeconds, treeRssMiB } from "./process-rss.ts";

// A fake /proc: 10 → 11 → 12, and an unrelated 20 whose command name contains ") 10 ".
const files: Record<string, string> = {
  // After the command name: state, ppid, pgrp, session, tty, tpgid, flags, 4 fault counts, utime, stime.
  "/proc/10/stat": "10 (tsx) S 1 10 10 0 -1 0 0 0 0 0 150 50",
  "/proc/11/stat": "11 (next-server (v16)) S 10 10 10 0 -1 0 0 0 0 0 1000 200",
  "/proc/12/stat": "12 (node) S 11 10 10 0 -1 0 0 0 0 0 7 3",
  "/proc/20/stat": "20 (evil ) 10 ) S 1 20 20 0 -1 0 0 0 0 0 90000 90000",
  "/proc/10/status": "Name:\ttsx\nVmRSS:\t   51200 kB\n",
  "/proc/11/status": "Name:\tnext\nVmRSS:\t  204800 kB\n",
  "/proc/12/status": "Name:\tnode\nVmRSS:\t   10240 kB\n",
  "/proc/20/status": "Name:\tevil\nVmRSS:\t  999999 kB\n",
};
const read = (path: string) => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT ${path}`);
  return text;
};
const list = () => ["10", "11", "12", "20", "self", "99"];

describe("process tree RSS", () => {
  it("follows parent links from the last parenthesis of the command name", () => {
    const parents = parentMap(read, list);
    expect(parents.get(20)).toBe(1);
    expect(processTree(10, parents).sort()).toEqual([10, 11, 12]);
  });

  it("sums VmRSS over the tree only, in MiB", () => {
    expect(treeRssMiB(10, read, list)).toBe(260);
    expect(treeRssMiB(11, read, list)).toBe(210);
  });

  it("sums user and system CPU time over the tree only, in seconds", () => {
    expect(treeCpuSeconds(10, read, list)).toBeCloseTo(14.1, 6);
    expect(treeCpuSeconds(11, read, list)).toBeCloseTo(12.1, 6);
  });
});
