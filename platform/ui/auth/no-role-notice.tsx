import { SignOutButton } from "../sign-out-button.tsx";
import { AccessNotice } from "./access-notice.tsx";

/**
 * Shown instead of every back-office page to a signed-in user whose identity provider gave no back-office
 * role: every API read would be refused, so say why once, and whom to ask, rather than a page of 403 panels.
 */
export function NoRoleNotice({ contact }: { contact: string | null }) {
  return (
    <AccessNotice
      testId="no-role"
      title="Your account has no role in this back office"
      action={<SignOutButton />}
    >
      You are signed in, but your account has not been given a back-office role (VIP manager, support agent or
      admin), so no player data can be shown. To get access, ask{" "}
      {contact ?? "an administrator of this back office"}.
    </AccessNotice>
  );
}
