/** The two screen sizes the layout checks and screenshots use: a desktop and a phone. */
export const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;
