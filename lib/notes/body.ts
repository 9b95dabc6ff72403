/**
 * A note's body in the notes layer: what a write stores of it (its blocks,
 * text and Markdown, converted once per write by lib/body before the write's
 * transaction opens) and its Markdown read back.
 */
import type { Db } from "@/lib/db/client";
import { bodyBlocks, isEmptyBody } from "@/lib/body/document";
import { contentToMarkdown, convertMarkdownBody, MarkdownConversionError, noteMarkdown, withoutTitleLine } from "@/lib/body/markdown";
import { AppError, fieldDetails, noteNotFound } from "@/lib/errors";
import { NOTE_TAGS_INCLUDE } from "@/lib/notes/serialize";
import { SETTINGS_SELECT, settingsOf, type NoteSettings } from "@/lib/notes/settings";
import { serializeTag } from "@/lib/tags/serialize";
import type { TTag } from "@/lib/tags/schemas";

type NoteBody = { title?: string; content?: unknown; contentMarkdown?: string; contentText?: string; derivedMarkdown?: string | null };

/**
 * A body ready to store: Markdown turned into content, and the Markdown of new
 * content to store beside it (null when the content is not BlockNote JSON:
 * its Markdown is then its contentText, see lib/notes/markdown.ts).
 */
export type ResolvedBody<T extends NoteBody> = Omit<T, "contentMarkdown"> & { derivedMarkdown?: string | null };

/**
 * Turns `contentMarkdown` into BlockNote `content` (with `contentText` derived
 * from the blocks unless given), and renders the Markdown stored beside any
 * new content, all in the conversion pool, in one job. Content given as JSON
 * keeps the contentText given with it (derived by the browser's save where it
 * checks the body; an empty string when the API is given none, as the
 * contract says). Markdown that cannot be converted is a
 * 400 like any other invalid body; a conversion over its budget is a 422 and
 * nothing is written.
 */
export async function resolveMarkdownBody<T extends NoteBody>(input: T & { derivedMarkdown?: never }, current?: MarkdownBase): Promise<ResolvedBody<T>> {
  const { contentMarkdown, ...rest } = input;
  if (contentMarkdown === undefined) {
    if (rest.content === undefined) return rest;
    // A body of text alone: its Markdown is rendered from the text on its first Markdown read.
    if (isEmptyBody(rest.content)) return { ...rest, derivedMarkdown: null };
    return { ...rest, derivedMarkdown: await contentToMarkdown(rest.content) };
  }
  // The note's whole Markdown, as read, writes back as it was: its title line is the title, not a block.
  const titles = [rest.title, current?.title].filter((title): title is string => title !== undefined);
  try {
    const converted = await convertMarkdownBody(withoutTitleLine(contentMarkdown, titles, current?.body), current?.blocks);
    return { ...rest, content: converted.content, contentText: rest.contentText ?? converted.contentText, derivedMarkdown: converted.markdown };
  } catch (err) {
    if (!(err instanceof MarkdownConversionError)) throw err;
    throw new AppError("INVALID_BODY", { fields: fieldDetails({ contentMarkdown: [err.message] }) });
  }
}

/** What Markdown written over a note is read against: its blocks, its title and its body's stored Markdown (null when not stored). */
export type MarkdownBase = { blocks?: unknown[]; title: string; body: string | null };

/**
 * The note's blocks as stored, for Markdown written over it to keep every
 * block it leaves unchanged (lib/body/keep-blocks.ts, in the conversion
 * worker; none when there are none to keep), and its title, which the
 * Markdown's first line may be (withoutTitleLine). The note is read as it is
 * now (or at `ifVersion`, when that is its version); a missing note or a stale
 * ifVersion fails in the write itself, and a write that comes in meanwhile is
 * overwritten as by any write of the whole body.
 */
export async function markdownBase(
  db: Db,
  { id, userId, ifVersion }: { id: string; userId: string; ifVersion?: number },
): Promise<MarkdownBase | undefined> {
  const current = await db.note.findFirst({ where: { id, userId }, select: { content: true, title: true, contentMarkdown: true, version: true } });
  if (!current || (ifVersion !== undefined && current.version !== ifVersion)) return undefined;
  return {
    title: current.title,
    body: current.contentMarkdown,
    ...(Array.isArray(current.content) && current.content.length > 0 ? { blocks: current.content } : {}),
  };
}

export type NoteMarkdown = {
  /** The note as one Markdown document, title first. */
  markdown: string;
  version: number;
  note: { id: string; title: string; updatedAt: string; tags: TTag[] } & NoteSettings;
};

/**
 * A note as Markdown: a read of the Markdown stored at write time. A note
 * whose Markdown is not stored (written before Markdown was stored, or by a
 * targeted edit applied again to a note written meanwhile) is
 * rendered once, in the conversion pool under the same budget as a write,
 * and the result stored, so reads do not repeat the work and a GET never
 * triggers unbounded work. A body that is not BlockNote JSON (stored as null)
 * reads as its contentText.
 */
export async function getNoteMarkdownOrThrow(db: Db, { id, userId }: { id: string; userId: string }): Promise<NoteMarkdown> {
  // The content (often the largest column) is not loaded when the Markdown is there.
  const row = await db.note.findFirst({
    where: { id, userId },
    select: {
      id: true,
      title: true,
      ...SETTINGS_SELECT,
      contentMarkdown: true,
      version: true,
      updatedAt: true,
      ...NOTE_TAGS_INCLUDE,
    },
  });
  if (!row) throw noteNotFound();
  const body = row.contentMarkdown ?? (await renderStoredMarkdown(db, { id, userId, version: row.version })) ?? "";
  return {
    markdown: noteMarkdown(row.title, body),
    version: row.version,
    note: { id: row.id, title: row.title, ...settingsOf(row), updatedAt: row.updatedAt.toISOString(), tags: row.tags.map((link) => serializeTag(link.tag)) },
  };
}

/** Renders running in this process, by note and version: a read that finds the Markdown missing joins the render already under way. */
const rendering = new Map<string, Promise<string | undefined>>();

/**
 * The note's Markdown body at `version`, rendered from its stored content in
 * the conversion pool (under the same budget as a write) and stored, so later
 * reads find it; undefined when the note is no longer at that version. The
 * store only fills a missing body of that same version: a write that came in
 * meanwhile stored its own, and neither version nor updatedAt change. A body
 * that is not BlockNote JSON reads as its plain text.
 */
function renderStoredMarkdown(db: Db, { id, userId, version }: { id: string; userId: string; version: number }): Promise<string | undefined> {
  const key = `${id}:${version}`;
  const running = rendering.get(key);
  if (running) return running;
  const task = (async () => {
    const stored = await db.note.findFirst({ where: { id, userId, version }, select: { content: true, contentText: true } });
    if (!stored) return undefined;
    const rendered = await contentToMarkdown(bodyBlocks(stored.content, stored.contentText));
    if (rendered === null) return stored.contentText;
    await db.note.updateMany({ where: { id, userId, version, contentMarkdown: null }, data: { contentMarkdown: rendered } });
    return rendered;
  })().finally(() => rendering.delete(key));
  rendering.set(key, task);
  return task;
}
