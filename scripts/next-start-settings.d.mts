export function productionStartEnv<E extends Record<string, string | undefined>>(env: E): E;
export function productionStartArgs(args: readonly string[]): string[];
