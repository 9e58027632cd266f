-- Server-side sign-in sessions: sign-out revokes one, and every path that trusts the session cookie (the page proxy,
-- /api/session/token, /api/auth/session) and every API token minted from it checks it, so a copied cookie or token
-- stops working at sign-out and at the session's absolute expiry. idp_tokens holds the identity provider's refresh
-- and access tokens sealed (AES-256-GCM), for re-reading the user's roles (lib/auth/session-store.ts).
CREATE TABLE "auth_sessions" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "role" TEXT,
    "provider" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,
    "roles_checked_at" TIMESTAMPTZ(3) NOT NULL,
    "roles_check_lease_until" TIMESTAMPTZ(3),
    "idp_tokens" TEXT,

    CONSTRAINT "auth_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "auth_sessions_expires_at_idx" ON "auth_sessions"("expires_at");
