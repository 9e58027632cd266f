import { readFile } from "node:fs/promises";

/**
 * Local addresses of the TCP sockets listening on `port`, from the kernel's tables (/proc/net/tcp and tcp6, in
 * their hex form): read, never probed by connecting to another address of this machine. `0100007F` is 127.0.0.1;
 * all zeros would be every interface.
 */
export async function listeningAddresses(port: number): Promise<string[]> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const found: string[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, localPort] = local?.split(":") ?? [];
      if (state === "0A" && localPort === hexPort && address) found.push(address); // 0A = LISTEN
    }
  }
  return found;
}
