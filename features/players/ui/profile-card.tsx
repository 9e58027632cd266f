"use client";

import { EyeOff } from "lucide-react";
import type { ReactNode } from "react";
import { telHref } from "@/features/players/client/player-contact";
import type { PlayerProfileData } from "@/features/players/client/queries";
import { timeZoneLabel } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { humanize } from "@/platform/format/labels";
import { TitledCard } from "../../../platform/ui/card.tsx";
import { DateValue } from "./date-value.tsx";
import { YesNo } from "./yes-no.tsx";

function Field({
  label,
  children,
  testId,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  return (
    <div className={wide ? "col-span-2 min-w-0" : "min-w-0"}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const contactLinkClass =
  "rounded-sm text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

const none = (text = "Not set") => <span className="text-slate-600">{text}</span>;

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <dl className="mt-3 grid grid-cols-2 gap-3">{children}</dl>
    </div>
  );
}

/**
 * Contact, account and communication details. `contactMasked`: the API masked e-mail and phone for this
 * role, so they are plain text (a masked address is no address to write to) and the card says so.
 */
export function ProfileCard({
  profile,
  tz,
  contactMasked,
}: {
  profile: PlayerProfileData;
  tz: TimeZoneChoice;
  contactMasked: boolean;
}) {
  return (
    <TitledCard titleId="details-title" title="Details">
      {contactMasked ? <ContactMaskedNote /> : null}
      <div className="grid grid-cols-1 gap-6 px-4 py-4 sm:px-5 lg:grid-cols-3">
        <ContactGroup profile={profile} contactMasked={contactMasked} />
        <AccountGroup profile={profile} tz={tz} />
        <CommunicationGroup settings={profile.settings} />
      </div>
      <SegmentList segments={profile.segments} />
    </TitledCard>
  );
}

function ContactMaskedNote() {
  return (
    <p
      className="flex items-start gap-2 border-b border-slate-100 bg-slate-50 px-4 py-2 text-sm text-slate-700 sm:px-5"
      data-testid="contact-masked-note"
    >
      <EyeOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
      Contact data is masked for your role: e-mail and phone show only enough to recognise the player.
    </p>
  );
}

/** E-mail and phone are links to write or call, unless masked (then plain text). */
function ContactGroup({ profile, contactMasked }: { profile: PlayerProfileData; contactMasked: boolean }) {
  return (
    <Group title="Contact">
      <Field label="Email" testId="field-email" wide>
        {profile.email === null ? (
          none()
        ) : contactMasked ? (
          profile.email
        ) : (
          <a className={contactLinkClass} href={`mailto:${profile.email}`}>
            {profile.email}
          </a>
        )}
      </Field>
      <Field label="Phone" testId="field-phone">
        {profile.phone === null ? (
          none()
        ) : contactMasked ? (
          profile.phone
        ) : (
          <a className={contactLinkClass} href={telHref(profile.phone)}>
            {profile.phone}
          </a>
        )}
      </Field>
      <Field label="Language" testId="field-language">
        {profile.language ?? none()}
      </Field>
      <Field label="Currency" testId="field-currency">
        {profile.currency}
      </Field>
    </Group>
  );
}

function AccountGroup({ profile, tz }: { profile: PlayerProfileData; tz: TimeZoneChoice }) {
  return (
    <Group title="Account">
      <Field label="VIP manager" testId="field-vip-manager">
        {profile.vip_manager ?? none("None assigned")}
      </Field>
      <Field label="Affiliate" testId="field-affiliate">
        {profile.affiliate_name ? (
          <>
            {profile.affiliate_name}
            {profile.affiliate_source ? (
              <span className="block text-xs text-slate-600">Source: {profile.affiliate_source}</span>
            ) : null}
          </>
        ) : (
          none("No affiliate")
        )}
      </Field>
      <Field label="Registered" testId="field-registered">
        <DateValue iso={profile.registration_date} tz={tz} />
      </Field>
      <Field label="First deposit" testId="field-first-deposit">
        <DateValue iso={profile.ftd_date} tz={tz} empty="No deposit yet" />
      </Field>
      <Field label="Last login" testId="field-last-login">
        <DateValue iso={profile.last_login} tz={tz} />
      </Field>
      <Field label="Time zone">{timeZoneLabel(tz)}</Field>
    </Group>
  );
}

function CommunicationGroup({ settings: s }: { settings: PlayerProfileData["settings"] }) {
  return (
    <Group title="Communication">
      <Field label="Marketing email">
        <YesNo value={s.marketing_email_subscription} />
      </Field>
      <Field label="Email validated">
        <YesNo value={s.email_validation} />
      </Field>
      <Field label="Marketing SMS">
        <YesNo value={s.marketing_sms_subscription} />
      </Field>
      <Field label="SMS validated">
        <YesNo value={s.sms_validation} />
      </Field>
      <Field label="Wants bonuses">
        <YesNo value={s.want_bonus} />
      </Field>
      <Field label="Account activation">
        <span className="block">
          Email: {s.email_account_activation ? humanize(s.email_account_activation) : "—"}
        </span>
        <span className="block">
          SMS: {s.sms_account_activation ? humanize(s.sms_account_activation) : "—"}
        </span>
      </Field>
    </Group>
  );
}

function SegmentList({ segments }: { segments: PlayerProfileData["segments"] }) {
  return (
    <div className="border-t border-slate-100 px-4 py-3 sm:px-5">
      <h3 className="sr-only">Segments</h3>
      <ul className="flex flex-wrap items-center gap-1.5" aria-label="Segments" data-testid="segments">
        <li aria-hidden="true" className="mr-1 text-xs font-medium uppercase tracking-wide text-slate-600">
          Segments
        </li>
        {segments.length === 0 ? <li className="text-sm text-slate-600">None</li> : null}
        {segments.map((segment) => (
          <li
            key={segment}
            title={segment}
            className="rounded-full border border-slate-300 bg-slate-50 px-2.5 py-0.5 text-xs font-medium text-slate-800"
          >
            {humanize(segment)}
          </li>
        ))}
      </ul>
    </div>
  );
}
