/*
 * Preloaded into servers the CPU profiler measures (tools/bench/cpu-profile.ts, NODE_OPTIONS=--require …).
 * In the Next.js server process only (not the launcher or its helper steps), SIGUSR2 starts V8's sampling
 * profiler and the next SIGUSR2 writes the profile to $PROFILE_DIR, so start-up and warm-up are left out.
 */
const fs = require("node:fs");
const inspector = require("node:inspector");
const path = require("node:path");

const dir = process.env.PROFILE_DIR;
const isNextServer = process.argv.some((a) => /next[\\/]dist[\\/]bin[\\/]next$/.test(a));

if (dir && isNextServer) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(process.env.PROFILE_INTERVAL_US ?? 250) });
  let running = false;
  let count = 0;
  process.on("SIGUSR2", () => {
    if (!running) {
      running = true;
      session.post("Profiler.start");
      return;
    }
    session.post("Profiler.stop", (error, result) => {
      running = false;
      if (error) return;
      count += 1;
      const file = path.join(dir, `server-${process.pid}-${count}.cpuprofile`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.tmp`, file);
    });
  });
}
