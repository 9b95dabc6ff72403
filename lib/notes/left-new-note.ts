// A new note left untouched by a full page load (the address bar, a bookmark,
// closing the tab) runs no code of the app on its way out, so it cannot be
// deleted then: its page names it in this cookie as it unloads, and the next
// page the browser loads settles it. The list page deletes it before listing
// (lib/notes/mutations.ts discardEmptyNote: only while still untouched); any
// other page, in the browser (components/shell/settle-left-new-note.tsx). A reload
// loads the note itself again, which keeps it.

export const LEFT_NEW_NOTE_COOKIE = "notes-left-new";

/** Long enough for the person's next visit; the cookie goes as soon as a page settles it. */
const MAX_AGE_S = 30 * 24 * 60 * 60;

export type LeftNewNote = { id: string; version: number };

const VALUE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([1-9][0-9]{0,8})$/;

/** The cookie's value, or null when it is not one this app wrote. */
export function parseLeftNewNote(value: string | undefined): LeftNewNote | null {
  const match = value === undefined ? null : VALUE.exec(value);
  return match ? { id: match[1]!, version: Number(match[2]) } : null;
}

/** document.cookie's assignment that names `note` (secure on HTTPS pages). */
export function leftNewNoteCookie(note: LeftNewNote, secure: boolean): string {
  return `${LEFT_NEW_NOTE_COOKIE}=${note.id}.${note.version}; Path=/; Max-Age=${MAX_AGE_S}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** document.cookie's assignment that removes it. */
export const clearLeftNewNoteCookie = `${LEFT_NEW_NOTE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;

/** The cookie's value in a Cookie header or document.cookie. */
export function readLeftNewNote(cookies: string): LeftNewNote | null {
  for (const pair of cookies.split(";")) {
    const [name, ...rest] = pair.trim().split("=");
    if (name === LEFT_NEW_NOTE_COOKIE) return parseLeftNewNote(rest.join("="));
  }
  return null;
}
