// The types of entries.mjs, for the TypeScript that reads the list (the vitest config and the package tests).
export declare const ENTRIES: Record<string, string>;
