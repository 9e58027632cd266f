/** Progress lines on stderr-free stdout: phase, rows so far, rows per second; at most one line per interval. */
export interface Progress {
  phase(name: string): void;
  rows(n: number): void;
  done(): PhaseTiming[];
}

export interface PhaseTiming {
  phase: string;
  seconds: number;
  rows: number;
}

export function createProgress(log: (line: string) => void = console.log, intervalMs = 2_000): Progress {
  const timings: PhaseTiming[] = [];
  let current: { name: string; started: number; rows: number; lastLog: number } | null = null;

  const close = () => {
    if (!current) return;
    const seconds = (performance.now() - current.started) / 1000;
    timings.push({ phase: current.name, seconds, rows: current.rows });
    const rate =
      current.rows && seconds > 0
        ? `, ${Math.round(current.rows / seconds).toLocaleString("en")} rows/s`
        : "";
    log(
      `  ${current.name}: done in ${seconds.toFixed(1)} s${current.rows ? ` (${current.rows.toLocaleString("en")} rows${rate})` : ""}`,
    );
    current = null;
  };

  return {
    phase(name) {
      close();
      const now = performance.now();
      current = { name, started: now, rows: 0, lastLog: now };
      log(`${name} …`);
    },
    rows(n) {
      if (!current) return;
      current.rows = n;
      const now = performance.now();
      if (now - current.lastLog >= intervalMs) {
        current.lastLog = now;
        const seconds = (now - current.started) / 1000;
        log(
          `  ${current.name}: ${n.toLocaleString("en")} rows, ${Math.round(n / seconds).toLocaleString("en")} rows/s`,
        );
      }
    },
    done() {
      close();
      return timings;
    },
  };
}

/** A progress that prints nothing (tests). */
export const silentProgress = (): Progress => createProgress(() => {});
