import { pathToFileURL } from "node:url";

/**
 * Runs a command's `main` when its module is the one node was started with (not when a test imports it): exits
 * with the code `main` returns, or reports the error's message and exits 1.
 */
export function runMain(
  moduleUrl: string,
  main: (argv: string[]) => Promise<number>,
  report: (message: string) => void = console.error,
): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? "").href) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      report(error.message);
      process.exit(1);
    },
  );
}
