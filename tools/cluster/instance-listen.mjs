/*
 * Loaded into each cluster instance (NODE_OPTIONS=--import, tools/cluster/cluster.ts) so that it listens on a Unix
 * socket instead of a TCP port: `next start` knows only ports, and on one machine any local process can open a
 * TCP connection from any loopback address, the proxy's too (TRUSTED_PROXIES), and write its own
 * X-Forwarded-For. The socket is the cluster's user's alone (mode 0600, in a 0700 directory): HAProxy, run by that
 * user, reaches it; another local user cannot (EACCES). docs/scale-out.md, "Who reaches an instance".
 *
 * A Unix socket has no peer address, and the app believes X-Forwarded-For only from a trusted address: every
 * connection on this socket is HAProxy's, so it is given CLUSTER_INSTANCE_PEER, the address the instance trusts.
 * Plain JavaScript: loaded before Next.js, as platform/runtime/server-preload.mjs is.
 */
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";

const socketPath = process.env.CLUSTER_INSTANCE_SOCKET;
// The port Next.js is told (`--port`): its listen call is the one moved to the socket; nothing else is.
const port = Number(process.env.CLUSTER_INSTANCE_PORT);
const peer = process.env.CLUSTER_INSTANCE_PEER;

if (socketPath && Number.isInteger(port) && port > 0 && peer) {
  const listen = net.Server.prototype.listen;
  /** @this {net.Server} @param {any[]} args */
  net.Server.prototype.listen = function listenOnSocket(...args) {
    if (args[0] !== port) return listen.apply(this, /** @type {any} */ (args));
    net.Server.prototype.listen = listen;
    // A socket file left by an instance that was killed: nothing listens on it any more (cluster:up refuses to
    // start over a running cluster).
    rmSync(socketPath, { force: true });
    this.prependListener("connection", (/** @type {net.Socket} */ socket) => {
      Object.defineProperty(socket, "remoteAddress", { value: peer, configurable: true });
    });
    this.once("listening", () => chmodSync(socketPath, 0o600));
    const callback = args.find((a) => typeof a === "function");
    return listen.call(this, socketPath, callback);
  };
}
