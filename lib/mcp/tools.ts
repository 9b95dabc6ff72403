import { z } from "zod";
import type { AuthContext } from "@/lib/auth/authenticate";
import type { Db } from "@/lib/db/client";
import { agentAuthor } from "@/lib/db/author";
import { validationError } from "@/lib/errors";
import { parseId } from "@/lib/http";
import { noteEtag, versionFromIfMatch } from "@/lib/notes/etag";
import { createNote, deleteNote, updateNote, type VersionedNote } from "@/lib/notes/mutations";
import { getNoteBlocksOrThrow } from "@/lib/notes/blocks";
import { editNote } from "@/lib/notes/edits";
import { storeAttachment } from "@/lib/attachments/mutations";
import { ZUploadAttachmentToolSchema } from "@/lib/attachments/schemas";
import { ACCEPTED_TYPES } from "@/lib/attachments/types";
import { followChanges } from "@/lib/changes/queries";
import { ZChangesQuerySchema } from "@/lib/changes/schemas";
import { getNoteMarkdownOrThrow } from "@/lib/notes/body";
import { getNoteOrThrow, listNotes } from "@/lib/notes/queries";
import { EXCERPT_LENGTH, noteExcerpt } from "@/lib/notes/excerpt";
import { snippetHtml } from "@/lib/notes/snippet";
import { ZCreateNoteSchema, ZEditNoteSchema, ZListNotesQuerySchema, ZNoteFormatQuerySchema, ZUpdateNoteSchema, type TNote } from "@/lib/notes/schemas";
import { createTag, deleteTag, renameTag } from "@/lib/tags/mutations";
import { listTags } from "@/lib/tags/queries";
import { ZCreateTagSchema, ZRenameTagSchema } from "@/lib/tags/schemas";
import { deleteTrashedNote, restoreTrashedNote } from "@/lib/trash/mutations";
import { listTrash } from "@/lib/trash/queries";
import { restoreRevision } from "@/lib/revisions/mutations";
import { getRevisionOrThrow, listRevisions, revisionMarkdown } from "@/lib/revisions/queries";
import { ZListRevisionsQuerySchema } from "@/lib/revisions/schemas";
import { ZListTrashQuerySchema } from "@/lib/trash/schemas";

/** Whom a tool call acts for, exactly as for a REST request. */
export type ToolContext = { user: AuthContext; db: Db };

/** A tool's answer: JSON, or a Markdown document with JSON facts about it. */
export type ToolOutput = { json: Record<string, unknown> } | { markdown: string; json: Record<string, unknown> };

export type NoteTool = {
  name: string;
  title: string;
  description: string;
  /**
   * The arguments as advertised in tools/list: the REST schemas the tool
   * validates with, so the two describe the same thing.
   */
  input: z.ZodObject;
  readOnly?: boolean;
  destructive?: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
};

const ZNoteIdSchema = z.object({ id: z.guid().meta({ description: "The note's id." }) });
const ZTagIdSchema = z.object({ id: z.guid().meta({ description: "The tag's id (from list_tags)." }) });

/** The version a write must find, as REST's If-Match: by number, or by the ETag value itself. */
const ZConditionSchema = z
  .object({
    ifVersion: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: "Write only if the note is still at this version (from get_note); otherwise the call fails with \"Note was modified\" and the current note." }),
    etag: z.string().optional().meta({ description: "The same condition as an ETag value, e.g. \"v3\" in quotes, or * for any version." }),
  })
  .refine((args) => args.ifVersion === undefined || args.etag === undefined, {
    message: "Give ifVersion or etag, not both",
    path: ["etag"],
  });

/** search_notes: the list's query, as values rather than a query string's texts, and whether to give whole notes. */
const ZSearchNotesArgsSchema = z.object({
  ...ZListNotesQuerySchema.shape,
  full: z.boolean().optional().meta({ description: "true: each note whole (content, contentText), as GET /api/notes gives it; default false: compact." }),
});

/**
 * A page of notes as search_notes gives them by default: what an agent needs
 * to pick one (a few hundred bytes each, where a whole note can be a megabyte).
 * A snippet comes with every note: around the first match of a search (the
 * list's own highlight), else the text's start.
 */
function compactNotes(notes: { note: TNote & { snippet?: string }; version: number }[]) {
  return notes.map(({ note, version }) => ({
    id: note.id,
    title: note.title,
    snippet: note.snippet ?? snippetHtml(noteExcerpt(note.contentText)),
    tags: note.tags.map(({ id, name }) => ({ id, name })),
    pinned: note.pinned,
    version,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  }));
}

const ZGetNoteArgsSchema = ZNoteIdSchema.extend({
  format: ZNoteFormatQuerySchema.shape.format.meta({
    description:
      "markdown (default): the note as Markdown, title as the first `# ` heading; json: the note as the REST API returns it; blocks: each block as { id, type, text } (headings with level, nested children), the ids edit_note addresses blocks by.",
  }),
});

/** Validates with a REST schema, failing exactly as the REST route does. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown, code: "INVALID_BODY" | "INVALID_QUERY"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(code, parsed.error);
  return parsed.data;
}

const noteId = (args: Record<string, unknown>) => parseId(typeof args.id === "string" ? args.id : "", "INVALID_NOTE_ID");
const tagId = (args: Record<string, unknown>) => parseId(typeof args.id === "string" ? args.id : "", "INVALID_TAG_ID");

function ifVersionFrom(args: Record<string, unknown>): number | undefined {
  const { ifVersion, etag } = parseWith(ZConditionSchema, { ifVersion: args.ifVersion, etag: args.etag }, "INVALID_BODY");
  return etag === undefined ? ifVersion : versionFromIfMatch(etag);
}

/** Arguments for a REST query schema, which reads strings as a query string has them. */
const asQuery = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === "number" || typeof value === "boolean" ? String(value) : value]));

const ZRevisionIdSchema = ZNoteIdSchema.extend({ revisionId: z.guid().meta({ description: "The revision's id (from list_revisions)." }) });
const revisionId = (args: Record<string, unknown>) => parseId(typeof args.revisionId === "string" ? args.revisionId : "", "INVALID_REVISION_ID");

const versioned = ({ note, version }: VersionedNote) => ({ note, version, etag: noteEtag(version) });

// Everything but the id and the condition: the REST body.
function bodyOf(args: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ifVersion: _ifVersion, etag: _etag, ...body } = args;
  return body;
}

export const NOTE_TOOLS: readonly NoteTool[] = [
  {
    name: "search_notes",
    title: "Search notes",
    description:
      `List your notes, most recently updated first. search: whitespace-separated terms that must all occur (ignoring case) in the title or text; sort: "relevance" puts the best matches first (title, then whole words); tagId filters by tag; pinned: true lists only pinned notes, false only the others (list both to show pinned ones first); limit (1 to 500, default 100) and offset page through \`total\` matches. ` +
      `Each note comes compact, a few hundred bytes whatever its size: id, title, snippet (about ${EXCERPT_LENGTH} characters of its text around the first match, or its start; HTML-escaped, matches in <mark>…</mark>), tags, pinned, version, createdAt and updatedAt; read one whole with get_note. full: true gives each note whole instead (content and contentText), as GET /api/notes does, with its version.`,
    input: ZSearchNotesArgsSchema,
    readOnly: true,
    async run(args, { user, db }) {
      const { full, ...rest } = args;
      const wantsFull = parseWith(ZSearchNotesArgsSchema.shape.full, full, "INVALID_QUERY") ?? false;
      const query = parseWith(ZListNotesQuerySchema, asQuery(rest), "INVALID_QUERY");
      const page = await listNotes(db, { userId: user.userId, ...query, highlight: wantsFull ? query.highlight : true });
      const notes = page.notes.map((note, i) => ({ note: note as TNote & { snippet?: string }, version: page.versions[i]! }));
      const listed = wantsFull ? notes.map(({ note, version }) => ({ ...note, version })) : compactNotes(notes);
      return { json: { notes: listed, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } };
    },
  },
  {
    name: "get_note",
    title: "Read a note",
    description:
      "Read one note, as Markdown by default (title as the first `# ` heading: give the whole Markdown back to update_note and that line stays the title, not a block), as JSON, or as its blocks with their ids (format \"blocks\", for edit_note's blockId). Also gives its version: pass it as ifVersion to update_note or delete_note so you never overwrite someone else's edit.",
    input: ZGetNoteArgsSchema,
    readOnly: true,
    async run(args, { user, db }) {
      const id = noteId(args);
      const { format = "markdown" } = parseWith(ZNoteFormatQuerySchema, { format: args.format }, "INVALID_QUERY");
      if (format === "json") return { json: versioned(await getNoteOrThrow(db, { id, userId: user.userId })) };
      if (format === "blocks") {
        const { body, version } = await getNoteBlocksOrThrow(db, { id, userId: user.userId });
        return { json: { ...body, version, etag: noteEtag(version) } };
      }
      const { markdown, note, version } = await getNoteMarkdownOrThrow(db, { id, userId: user.userId });
      return {
        markdown,
        json: { id: note.id, title: note.title, pinned: note.pinned, version, etag: noteEtag(version), updatedAt: note.updatedAt, tags: note.tags },
      };
    },
  },
  {
    name: "create_note",
    title: "Create a note",
    description:
      "Create a note. Give the body as contentMarkdown (Markdown; converted to the editor's blocks, searchable text derived) or as content (BlockNote JSON), not both. tagIds assigns tags (see list_tags); pinned: true pins it.",
    input: ZCreateNoteSchema,
    async run(args, { user, db }) {
      const input = parseWith(ZCreateNoteSchema, args, "INVALID_BODY");
      return { json: versioned(await createNote(db, { userId: user.userId, author: agentAuthor("mcp", user), input })) };
    },
  },
  {
    name: "update_note",
    title: "Update a note",
    description:
      "Change a note's title, body (contentMarkdown or content, not both), contentText, tags (tagIds replaces them) or pin (pinned: true or false). Markdown written back keeps every block whose Markdown you left unchanged exactly as it was (colours, ids), and the title's `# ` line get_note puts first is the title, not a block (to rename, pass title); to change one part, edit_note is lighter. Pass the version you read as ifVersion: if the note changed since, nothing is written and the error carries the current note to merge with.",
    input: z.object({ ...ZNoteIdSchema.shape, ...ZConditionSchema.shape, ...ZUpdateNoteSchema.shape }),
    async run(args, { user, db }) {
      const id = noteId(args);
      const input = parseWith(ZUpdateNoteSchema, bodyOf(args), "INVALID_BODY");
      const ifVersion = ifVersionFrom(args);
      return { json: versioned(await updateNote(db, { id, userId: user.userId, author: agentAuthor("mcp", user), input, ifVersion })) };
    },
  },
  {
    name: "edit_note",
    title: "Edit part of a note",
    description: [
      "Change part of a note without sending it all back: `operations` apply in order to the note as it is now, all or nothing (if one cannot apply, nothing is written and the error names its index). Blocks you do not touch keep everything, colours and ids included. No ifVersion needed; give one to apply only at that version. Block ids come from get_note with format \"blocks\". Operations, each with an example:",
      '- append / prepend: {"op":"append","markdown":"- [ ] call Sam"} (or "blocks": BlockNote JSON)',
      '- replace_text: {"op":"replace_text","find":"Friday","replace":"Monday","expectedCount":1}: fails with the count found unless exactly expectedCount matches (default 1)',
      '- replace_section: {"op":"replace_section","heading":"Risks","markdown":"## Risks\\n\\nNone left."}: the heading and its blocks up to the next heading of its level or higher; "keepHeading":true keeps the heading',
      '- insert_before_section / insert_after_section: {"op":"insert_after_section","heading":"Steps","markdown":"1. Ship"}',
      '- update_block: {"op":"update_block","blockId":"…","props":{"textColor":"red"},"content":"New text"} (also "type", "children"; a new type keeps only the props it has)',
      '- move_block: {"op":"move_block","blockId":"…","after":"…"} (or "before":"…", or "to":"start"/"end")',
      '- delete_block: {"op":"delete_block","blockId":"…"}',
      '- set_title: {"op":"set_title","title":"Plan v2"}',
      '- add_tags / remove_tags: {"op":"add_tags","tagIds":["…"]} (ids from list_tags)',
      "Blocks, types, props and content must be the editor's (BlockNote's default blocks): anything else is a 400 naming the operation and the path, e.g. operations[0] (append): blocks[0].type: unknown block type \"x\".",
    ].join("\n"),
    input: z.object({ ...ZNoteIdSchema.shape, ...ZConditionSchema.shape, ...ZEditNoteSchema.shape }),
    async run(args, { user, db }) {
      const id = noteId(args);
      const { operations } = parseWith(ZEditNoteSchema, bodyOf(args), "INVALID_BODY");
      const ifVersion = ifVersionFrom(args);
      return { json: versioned(await editNote(db, { id, userId: user.userId, operations, ifVersion, author: agentAuthor("mcp", user) })) };
    },
  },
  {
    name: "delete_note",
    title: "Delete a note",
    description:
      "Delete a note: it moves to the trash, where restore_note brings it back with the same id for the retention period (30 days by default). Pass the version you read as ifVersion to delete only if nobody changed it since.",
    input: z.object({ ...ZNoteIdSchema.shape, ...ZConditionSchema.shape }),
    destructive: true,
    async run(args, { user, db }) {
      const id = noteId(args);
      await deleteNote(db, { id, userId: user.userId, ifVersion: ifVersionFrom(args) });
      return { json: { deleted: id } };
    },
  },
  {
    name: "list_trash",
    title: "List the trash",
    description:
      "List your deleted notes, most recently deleted first, each with deletedAt and expiresAt (when it is gone for good). limit (1 to 500, default 100) and offset or cursor page through `total`.",
    input: ZListTrashQuerySchema,
    readOnly: true,
    async run(args, { user, db }) {
      const query = parseWith(ZListTrashQuerySchema, asQuery(args), "INVALID_QUERY");
      return { json: await listTrash(db, { userId: user.userId, ...query }) };
    },
  },
  {
    name: "restore_note",
    title: "Restore a deleted note",
    description: "Bring a note back from the trash with the same id, content and version, and the tags it had that still exist.",
    input: ZNoteIdSchema,
    async run(args, { user, db }) {
      return { json: versioned(await restoreTrashedNote(db, { id: noteId(args), userId: user.userId })) };
    },
  },
  {
    name: "delete_note_forever",
    title: "Delete a note forever",
    description: "Remove a deleted note from the trash for good; it cannot be restored after this.",
    input: ZNoteIdSchema,
    destructive: true,
    async run(args, { user, db }) {
      const id = noteId(args);
      await deleteTrashedNote(db, { id, userId: user.userId });
      return { json: { deleted: id } };
    },
  },
  {
    name: "list_revisions",
    title: "List a note's history",
    description:
      "A note's revisions, newest first (the first is the note as it is now): each with who made the change — author.kind api (an agent through the REST API), mcp (an agent through MCP, like you), browser (the person) or system — and when. Use it to see what changed and to find a version to restore. limit (1 to 100, default 20); cursor: the previous page's nextCursor.",
    input: ZNoteIdSchema.extend(ZListRevisionsQuerySchema.shape),
    readOnly: true,
    async run(args, { user, db }) {
      const { id: _id, ...rest } = args;
      const query = parseWith(ZListRevisionsQuerySchema, asQuery(rest), "INVALID_QUERY");
      return { json: await listRevisions(db, { noteId: noteId(args), userId: user.userId, ...query }) };
    },
  },
  {
    name: "get_revision",
    title: "Read a note's revision",
    description: "Read a note as it was at one revision (from list_revisions): as Markdown by default (title as the first `# ` heading), or as JSON with its blocks.",
    input: ZRevisionIdSchema.extend({ format: ZGetNoteArgsSchema.shape.format }),
    readOnly: true,
    async run(args, { user, db }) {
      const { format = "markdown" } = parseWith(ZNoteFormatQuerySchema, { format: args.format }, "INVALID_QUERY");
      const { revision } = await getRevisionOrThrow(db, { noteId: noteId(args), revisionId: revisionId(args), userId: user.userId });
      if (format === "json") return { json: { revision } };
      const { content: _content, contentText: _text, ...facts } = revision;
      return { markdown: await revisionMarkdown(revision), json: facts };
    },
  },
  {
    name: "restore_revision",
    title: "Restore a note's revision",
    description:
      "Put a note back as it was at a revision (from list_revisions): title, content and the tags it had that still exist. The restore is itself a new revision, so it can be undone the same way. ifVersion (or etag) makes it happen only if the note is still at that version.",
    input: ZRevisionIdSchema.extend(ZConditionSchema.shape),
    async run(args, { user, db }) {
      const restored = await restoreRevision(db, {
        noteId: noteId(args),
        revisionId: revisionId(args),
        userId: user.userId,
        author: agentAuthor("mcp", user),
        ifVersion: ifVersionFrom(args),
      });
      return { json: versioned(restored) };
    },
  },
  {
    name: "list_tags",
    title: "List tags",
    description: "List your tags by name, with the ids that create_note, update_note and search_notes take.",
    input: z.object({}),
    readOnly: true,
    async run(_args, { user, db }) {
      return { json: { tags: await listTags(db, { userId: user.userId }) } };
    },
  },
  {
    name: "create_tag",
    title: "Create a tag",
    description: "Create a tag. Names are unique per user, case-insensitively.",
    input: ZCreateTagSchema,
    async run(args, { user, db }) {
      const input = parseWith(ZCreateTagSchema, args, "INVALID_BODY");
      return { json: { tag: await createTag(db, { userId: user.userId, input }) } };
    },
  },
  {
    name: "rename_tag",
    title: "Rename a tag",
    description: "Rename a tag; the notes that carry it keep it. Names are unique per user, case-insensitively, as for create_tag.",
    input: ZTagIdSchema.extend(ZRenameTagSchema.shape),
    async run(args, { user, db }) {
      const id = tagId(args);
      const input = parseWith(ZRenameTagSchema, { name: args.name }, "INVALID_BODY");
      return { json: { tag: await renameTag(db, { id, userId: user.userId, author: agentAuthor("mcp", user), input }) } };
    },
  },
  {
    name: "delete_tag",
    title: "Delete a tag",
    description: "Delete a tag and take it off every note that carries it; the notes stay.",
    input: ZTagIdSchema,
    destructive: true,
    async run(args, { user, db }) {
      const id = tagId(args);
      await deleteTag(db, { id, userId: user.userId, author: agentAuthor("mcp", user) });
      return { json: { deleted: id } };
    },
  },
  {
    name: "recent_changes",
    title: "Follow changes",
    description:
      "What changed in your notes and tags since a cursor, in commit order — the way to stay in sync without listing again. First call it without since: it answers no changes and the current cursor; pass that cursor as since next time, and each answer's cursor after that. Each change: entity (note or tag), action (notes: created, updated, deleted to the trash, restored, purged; tags: created, updated = renamed, deleted), id, version (a note's, after the change) and at. Example: {\"since\": \"42\"} → {\"changes\": [{\"entity\": \"note\", \"action\": \"updated\", \"id\": \"…\", \"version\": 7, \"at\": \"…\"}], \"cursor\": \"43\", \"hasMore\": false}. hasMore: call again at once. wait (seconds, up to 30): when nothing changed yet, wait for the next change. limit: 1 to 500 (default 100). A cursor older than the changes kept fails: list again and start from a new cursor.",
    input: ZChangesQuerySchema,
    readOnly: true,
    async run(args, { user, db }) {
      const query = parseWith(ZChangesQuerySchema, asQuery(args), "INVALID_QUERY");
      return { json: await followChanges(db, { userId: user.userId, ...query }) };
    },
  },
  {
    name: "upload_attachment",
    title: "Attach an image or file",
    description: `Store an image or file for your notes: contentBase64 (its bytes, base64), contentType (e.g. image/png) and name. Answers { attachment } with its url and the Markdown that shows it: add that Markdown to a note (edit_note with {"op": "append", "markdown": attachment.markdown}). Its type is decided by its bytes; accepted: ${ACCEPTED_TYPES.join(", ")}. A tool call carries at most about 700 KB of file; larger ones go through POST /api/attachments.`,
    input: ZUploadAttachmentToolSchema,
    async run(args, { user, db }) {
      const { contentBase64, contentType, name } = parseWith(ZUploadAttachmentToolSchema, args, "INVALID_BODY");
      const bytes = Buffer.from(contentBase64, "base64");
      return { json: { attachment: await storeAttachment(db, { userId: user.userId, bytes, declaredType: contentType ?? null, name }) } };
    },
  },
];
