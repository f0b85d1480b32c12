/** The flags Debian's Chromium needs on these machines; see chromium.mjs. */
export declare const CHROMIUM_ARGS: readonly string[];
