export declare const DEMO_NOW_ISO: string;
