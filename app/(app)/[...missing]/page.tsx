import { notFound } from "next/navigation";

/*
 * Any address no other route claims lands here rather than on the root not-found page, so the 404 renders
 * inside the (app) layout: signed in, with the header, the user and sign-out.
 */
export default function Missing(): never {
  notFound();
}
