-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "kyc_status" AS ENUM ('not_started', 'pending', 'in_review', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "event_type" AS ENUM ('deposit', 'withdrawal', 'bonus', 'bet', 'win', 'adjustment', 'refund');

-- CreateTable
CREATE TABLE "players" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "phone" TEXT,
    "currency" VARCHAR(10) NOT NULL,
    "language" TEXT,
    "registration_date" TIMESTAMPTZ(3) NOT NULL,
    "ftd_date" TIMESTAMPTZ(3),
    "last_login" TIMESTAMPTZ(3),
    "kyc_status" "kyc_status" NOT NULL DEFAULT 'not_started',
    "withdrawal_status" TEXT,
    "affiliate_name" TEXT,
    "affiliate_source" TEXT,
    "vip_manager" TEXT,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "total_balance" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "cash_balance" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "bonus_balance" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "withdrawable_balance" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "pending_withdrawal" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "active_bonus" BOOLEAN NOT NULL DEFAULT false,
    "wr" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "last_withdrawal_amount" DECIMAL(20,8),
    "last_withdrawal_status" TEXT,
    "last_deposit_amount" DECIMAL(20,8),
    "last_deposit_date" TIMESTAMPTZ(3),
    "ltd" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "ltw" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "ltnc" DECIMAL(20,8) NOT NULL DEFAULT 0,
    "segments" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "marketing_email_subscription" BOOLEAN NOT NULL DEFAULT false,
    "email_validation" BOOLEAN NOT NULL DEFAULT false,
    "email_account_activation" TEXT,
    "marketing_sms_subscription" BOOLEAN NOT NULL DEFAULT false,
    "sms_validation" BOOLEAN NOT NULL DEFAULT false,
    "sms_account_activation" TEXT,
    "want_bonus" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transactions" (
    "id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "date" TIMESTAMPTZ(3) NOT NULL,
    "event_type" "event_type" NOT NULL,
    "event_name" TEXT NOT NULL,
    "event_note" TEXT,
    "amount" DECIMAL(20,8) NOT NULL,
    "currency" VARCHAR(10) NOT NULL,
    "payment_method" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "transactions_player_date_id_idx" ON "transactions"("player_id", "date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_player_type_date_id_idx" ON "transactions"("player_id", "event_type", "date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_player_name_date_id_idx" ON "transactions"("player_id", "event_name", "date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_player_creator_date_id_idx" ON "transactions"("player_id", "created_by", "date" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
