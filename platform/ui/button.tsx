import type { ButtonHTMLAttributes } from "react";
import { cn } from "@/platform/ui/cn";

const VARIANTS = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400 disabled:hover:bg-white",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-transparent",
} as const;

const SIZES = {
  sm: "h-8 gap-1.5 px-2.5 text-sm",
  md: "h-10 gap-2 px-4 text-sm",
  icon: "size-9 justify-center",
} as const;

export const buttonClass = (variant: keyof typeof VARIANTS = "secondary", size: keyof typeof SIZES = "md") =>
  cn(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
    "disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
  );

export function Button({
  variant,
  size,
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof VARIANTS; size?: keyof typeof SIZES }) {
  return <button type={type} className={cn(buttonClass(variant, size), className)} {...props} />;
}
