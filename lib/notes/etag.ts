/**
 * A note's strong ETag: its version, which every change to what a read of the
 * note answers bumps: each write, and a rename or deletion of one of its tags
 * (the tag_changes_new_note_versions migration), since the note shows its tags.
 * Parsing accepts exactly what noteEtag produces (plus the `*` wildcard), so a
 * client cannot pass a stale or foreign tag by accident.
 */
export function noteEtag(version: number): string {
  return `"v${version}"`;
}

/** The version named by an If-Match value; `null` when it names none of ours. */
export function parseNoteEtag(value: string): number | null {
  const match = /^"v(\d{1,9})"$/.exec(value.trim());
  return match ? Number(match[1]) : null;
}

/**
 * The version an If-Match header requires: undefined when there is no header
 * or it is `*` (any current version), -1 when it names no version of ours
 * (never matches, so the write answers 412 with the current note).
 */
export function versionFromIfMatch(header: string | null): number | undefined {
  if (header === null || header.trim() === "*") return undefined;
  for (const candidate of header.split(",")) {
    const version = parseNoteEtag(candidate);
    if (version !== null) return version;
  }
  return -1;
}
