import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/**
 * A command's options (node:util parseArgs, plus --help): a usage error prints its message and `help` and exits
 * 2; --help prints `help` and exits 0.
 */
export function commandArgs<O extends Options>(command: string, help: string, options: O) {
  let parsed: ReturnType<typeof parseArgs<{ options: O & typeof HELP_OPTION }>>;
  try {
    parsed = parseArgs({ options: { ...options, ...HELP_OPTION } });
  } catch (error) {
    console.error(`${command}: ${(error as Error).message}\n\n${help}`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(help);
    process.exit(0);
  }
  return parsed.values;
}
