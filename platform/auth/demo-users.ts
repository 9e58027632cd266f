import { type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import type { Role } from "./roles.ts";

export interface BackOfficeUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}

interface StoredUser extends BackOfficeUser {
  username: string;
  passwordHash: string;
}

/** Demo sign-in accounts, one per role. Passwords are kept as scrypt hashes (N=2^15, r=8, p=1) only. */
export const DEMO_USERS: readonly StoredUser[] = [
  {
    id: "demo-vip-manager",
    username: "vip.manager",
    name: "Sarah Mitchell",
    email: "vip.manager@demo.invalid",
    role: "vip_manager",
    passwordHash: "scrypt$32768$8$1$wRblm6NF-6ZpoUvf4KJUgQ$4kSROdDXMZbdc9bbB-8SskJxWrCUJanUOa7sMYDOJ50",
  },
  {
    id: "demo-support-agent",
    username: "support.agent",
    name: "Tom Becker",
    email: "support.agent@demo.invalid",
    role: "support_agent",
    passwordHash: "scrypt$32768$8$1$9MZDbUcgmclM-BUgejRRuQ$ieYQsiMTgR1zLUdPujrauAsMwe0jiO1VDU66n0VIGwU",
  },
  {
    id: "demo-admin",
    username: "admin",
    name: "Alex Admin",
    email: "admin@demo.invalid",
    role: "admin",
    passwordHash: "scrypt$32768$8$1$nObtn9wC3JXpY3z11sWX3g$0ncU9CrLLsT5ZbyYTsG61Km2XvmNj3_X2NEyWlj41kk",
  },
];

// Compared against when the username is unknown, so that both failures take as long (no user enumeration).
const DUMMY_HASH = "scrypt$32768$8$1$gyi1c5UKGyg_kdyVyiZuzg$PBJDFW8i4SP9mqaJM8jin1Ip6GUXjrcmO4wpwFYSmVQ";

/** The demo user with these credentials, or null. Usernames are case-insensitive, passwords are not. */
export async function verifyDemoCredentials(
  username: unknown,
  password: unknown,
): Promise<BackOfficeUser | null> {
  if (typeof username !== "string" || typeof password !== "string") return null;
  if (password.length === 0 || password.length > 200) return null;
  const user = DEMO_USERS.find((u) => u.username === username.trim().toLowerCase());
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) return null;
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/** node:crypto's scrypt runs in libuv's thread pool, so a verification never blocks other requests. */
function scryptAsync(
  password: string,
  salt: Buffer,
  length: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url) → whether the password matches, compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt = "", hash = ""] = stored.split("$");
  if (scheme !== "scrypt") throw new Error("unknown password hash scheme");
  const expected = Buffer.from(hash, "base64url");
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length, options);
  return timingSafeEqual(actual, expected);
}
