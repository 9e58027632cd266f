// Moved to lib/hooks; this forward stays only until components/auth/sign-in-form.tsx imports it from there.
export { useHydrated } from "@/lib/hooks/use-hydrated";
