import bcrypt from "bcryptjs";
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

/** Demo sign-in accounts, one per role. Passwords are kept as bcrypt hashes (cost 10) only. */
const DEMO_USERS: readonly StoredUser[] = [
  {
    id: "demo-vip-manager",
    username: "vip.manager",
    name: "Sarah Mitchell",
    email: "vip.manager@demo.invalid",
    role: "vip_manager",
    passwordHash: "$2b$10$bVK/rfn5TWm/qvPsX/iNg.aHv/LG16yHoWvpXRvlrUC86VREQOvfK",
  },
  {
    id: "demo-support-agent",
    username: "support.agent",
    name: "Tom Becker",
    email: "support.agent@demo.invalid",
    role: "support_agent",
    passwordHash: "$2b$10$pp4vonIoPXwWO5M5GwFGOefGb9j9LaBXXCf4OS1txbc9DGnYkyZea",
  },
  {
    id: "demo-admin",
    username: "admin",
    name: "Alex Admin",
    email: "admin@demo.invalid",
    role: "admin",
    passwordHash: "$2b$10$Cj2AHo8Y0a4ojalzmii7k.W/06N8E4AS2z0DL.wmBWOSE9kr5wE8K",
  },
];

// Compared against when the username is unknown, so that both failures take as long (no user enumeration).
const DUMMY_HASH = "$2b$10$y7B0yMhb29RvWmeGCIS12ujzVBhEF0MEZsz1GrLaVLgjMTRDQgKTi";

/** The demo user with these credentials, or null. Usernames are case-insensitive, passwords are not. */
export async function verifyDemoCredentials(
  username: unknown,
  password: unknown,
): Promise<BackOfficeUser | null> {
  if (typeof username !== "string" || typeof password !== "string") return null;
  if (password.length === 0 || password.length > 200) return null;
  const user = DEMO_USERS.find((u) => u.username === username.trim().toLowerCase());
  const ok = await bcrypt.compare(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) return null;
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

export function listDemoUsernames(): string[] {
  return DEMO_USERS.map((u) => u.username);
}
