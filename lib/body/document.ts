import { partialBlockProblem } from "@/lib/body/block-shape";
import { contentToText } from "@/lib/body/content-text";

/** Largest body the browser saves, as JSON (the server action's request limit is a little above it). */
export const NOTE_CONTENT_MAX_BYTES = 1_900_000;

type Block = { type: string; [key: string]: unknown };

export type EditorStart = {
  /** Blocks to open the editor with; undefined for an empty note (BlockNote rejects an empty array). */
  blocks: Block[] | undefined;
  /** The body was not editor JSON (e.g. an agent sent only contentText) and is shown as text paragraphs. */
  fromText: boolean;
};

function isBlock(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as Block).type === "string";
}

/**
 * What the editor opens with. Notes written through the API may carry any JSON
 * as `content`, or only `contentText`: rather than show those as empty (and
 * erase the text on the first save), the text becomes paragraphs. Blocks of a
 * type the editor does not know become paragraphs of their text.
 */
export function editorStart(content: unknown, contentText: string, knownTypes: ReadonlySet<string>): EditorStart {
  if (Array.isArray(content) && content.length > 0 && content.every(isBlock)) {
    const blocks = content.map((block) => (knownTypes.has(block.type) ? sanitizeBlock(block, knownTypes) : paragraphOf(contentToText([block]))));
    return { blocks, fromText: false };
  }
  const text = contentText.trim() ? contentText : contentToText(content);
  if (!text.trim()) return { blocks: undefined, fromText: false };
  return { blocks: bodyBlocks([], text) as Block[], fromText: true };
}

function sanitizeBlock(block: Block, knownTypes: ReadonlySet<string>): Block {
  if (!Array.isArray(block.children) || block.children.length === 0) return block;
  const children = block.children.filter(isBlock).map((child) =>
    knownTypes.has(child.type) ? sanitizeBlock(child, knownTypes) : paragraphOf(contentToText([child])),
  );
  return { ...block, children };
}

function paragraphOf(text: string): Block {
  return { type: "paragraph", content: text };
}

/** No body but its text: no content, or an empty list of blocks. */
export const isEmptyBody = (content: unknown): boolean => content === undefined || content === null || (Array.isArray(content) && content.length === 0);

/**
 * The blocks a body stands for: its own, or, for a note given only its text,
 * a paragraph per line of the text, as the editor opens such a note. Each of
 * those has the id `line-<n>`, so an outline read and an edit of the same
 * text name the same blocks. Any other JSON (not a list) is as it is: no blocks.
 */
export function bodyBlocks(content: unknown, contentText: string): unknown {
  if (!isEmptyBody(content) || contentText === "") return content ?? [];
  return contentText.split("\n").map((line, index) => ({
    id: `line-${index + 1}`,
    type: "paragraph",
    props: { backgroundColor: "default", textColor: "default", textAlignment: "left" },
    content: line === "" ? [] : [{ type: "text", text: line, styles: {} }],
    children: [],
  }));
}

/** Why the body is shown as its text when the editor refused its blocks (`err`, what it threw). */
export function unreadableBlocks(err: unknown): string {
  return `the editor could not read the blocks (${err instanceof Error ? err.message : String(err)})`;
}

/**
 * Why the editor cannot show the stored body as it is, or null when it can:
 * a body that is not a list of blocks, or a block the note schema does not
 * hold (a type, prop or field it does not know). Shown all the same, as its
 * text, such a body would be saved back as shown on the next edit, and what
 * was not shown would be gone; an empty body (a note given only its text) is
 * shown whole as paragraphs.
 */
export function unshowableBody(content: unknown): string | null {
  if (content === undefined || content === null || (Array.isArray(content) && content.length === 0)) return null;
  if (!Array.isArray(content)) return "content: not a list of blocks";
  for (let i = 0; i < content.length; i += 1) {
    const problem = partialBlockProblem(content[i], `content[${i}]`);
    if (problem) return problem;
  }
  return null;
}
