/** The prebuilt entry file, or null when there is none or a source changed (or vanished) since it was built. */
export function prebuiltEntry(dist: string): string | null;
