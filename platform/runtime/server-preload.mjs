/*
 * Loaded into the Next.js server process by scripts/serve.mjs (`--import`), before Next.js opens its port: the
 * request stamp, and with it the security headers, is then in place for the very first request, and the upgrade
 * guard for the very first Upgrade request (which the stamp never sees). (Next.js runs instrumentation.ts only
 * when it prepares, on its first request, after that request's start was announced.)
 */
import { installRequestStamp } from "../http/request-stamp.mjs";
import { installUpgradeGuard } from "../http/upgrade-guard.mjs";

installRequestStamp({ preloaded: true });
installUpgradeGuard();
