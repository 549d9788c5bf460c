// The binary files of a topic, summed up: normal beside documents (the
// images of a wiki, the fonts of a site), so kb check and kb list say them
// in one line per topic, and list each only when asked (--verbose, or
// --format json, which always has every file).

/** How many binary files a topic holds, by extension. */
export interface BinarySummary {
  count: number;
  /** Most first, then by extension ('' for files without one). */
  extensions: { ext: string; count: number }[];
}
