/** A phone number as a dialable `tel:` address: only its digits and a leading plus, no spaces or dashes. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
