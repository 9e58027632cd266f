type Env = Record<string, string | undefined>;
export declare const SCRIPT_SOURCES: Readonly<Record<string, string>>;
export declare const COMPILED_SCRIPTS: readonly string[];
export declare function compiledScriptsDir(root: string, env?: Env): string;
export declare function scriptArguments(
  mode: "dev" | "start",
  name: string,
  root: string,
  env?: Env,
): string[];
export declare function compiledScriptsPresent(root: string, env?: Env): boolean;
