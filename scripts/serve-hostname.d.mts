export declare const LOOPBACK: string;
export declare function listenArguments(
  env: Record<string, string | undefined>,
  nextArgs: string[],
): { args: string[]; notice?: string };
