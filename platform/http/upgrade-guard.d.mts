export const DEV_HMR_PATH: string;
export function upgradeAllowed(url: string | undefined, dev: boolean): boolean;
export function upgradeRefusal(url: string | undefined, context: { https: boolean; dev: boolean }): string;
export function installUpgradeGuard(): void;
