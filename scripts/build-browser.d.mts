/** Types of scripts/build-browser.mjs (the script stays plain JavaScript so `node` runs it without a loader). */
export declare const DEFAULT_OUTFILE: string
export declare function buildBrowserClient(options?: { outfile?: string; minify?: boolean }): Promise<{ outfile: string; bytes: number }>
