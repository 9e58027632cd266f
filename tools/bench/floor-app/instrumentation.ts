/** Empty on purpose: without it, the build picked up the repository's own instrumentation.ts (the product's start-up checks). */
export function register(): void {}
