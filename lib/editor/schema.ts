import { BlockNoteSchema, defaultBlockSpecs } from "@blocknote/core";

/**
 * The one block schema of a note's body, for the browser editor and for any
 * server-side BlockNote work (Markdown/HTML conversion). A block type added
 * here is one the whole app understands.
 */
export const noteSchema = BlockNoteSchema.create({ blockSpecs: defaultBlockSpecs });

export type NoteSchema = typeof noteSchema;
export type NoteBlock = NoteSchema["Block"];
