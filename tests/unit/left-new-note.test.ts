import { describe, expect, it } from "vitest";
import { clearLeftNewNoteCookie, leftNewNoteCookie, parseLeftNewNote, readLeftNewNote } from "@/lib/notes/left-new-note";

const note = { id: "4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10", version: 3 };

describe("the left-new-note cookie", () => {
  it("names the note and its version, read back from document.cookie or a Cookie header among other cookies", () => {
    const assignment = leftNewNoteCookie(note, false);
    expect(assignment).toMatch(/^notes-left-new=4b1c1a5e-0d7a-4c38-9d0e-6c1f3b2a9e10\.3; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    expect(leftNewNoteCookie(note, true)).toMatch(/; Secure$/);
    const pair = assignment.split(";")[0]!;
    expect(readLeftNewNote(pair)).toEqual(note);
    expect(readLeftNewNote(`session=abc=def; ${pair}; theme=dark`)).toEqual(note);
    expect(readLeftNewNote("session=abc")).toBeNull();
    expect(clearLeftNewNoteCookie).toMatch(/^notes-left-new=; Path=\/; Max-Age=0/);
  });

  it("takes nothing it did not write: another id, no version, version 0, trailing text", () => {
    for (const value of [undefined, "", "x.1", `${note.id}`, `${note.id}.0`, `${note.id}.1x`, `${note.id.toUpperCase()}.1`, `${note.id}.1234567890`]) {
      expect(parseLeftNewNote(value), String(value)).toBeNull();
    }
  });
});
