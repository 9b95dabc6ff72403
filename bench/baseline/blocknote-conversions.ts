/**
 * The conversions the notes service ran before its Markdown syntax tree
 * converter: BlockNote's own Markdown import and export, in linkedom's DOM
 * made to behave as BlockNote needs (light-dom.ts). Kept only as the
 * benchmark's baseline, measured in the same run as today's converter.
 */
import { BlockNoteEditor, blocksToMarkdown } from "@blocknote/core";
import { noteSchema, type NoteSchema } from "../../lib/body/schema";
import { createLightDom } from "./light-dom";

export type Converter = {
  markdownToBlocks(markdown: string): Promise<unknown[]>;
  blocksToMarkdown(blocks: unknown[]): Promise<string>;
};

type NoteEditor = BlockNoteEditor<NoteSchema["blockSchema"], NoteSchema["inlineContentSchema"], NoteSchema["styleSchema"]>;

export async function loadBaseline(): Promise<Converter> {
  const editor: NoteEditor = BlockNoteEditor.create({ schema: noteSchema });
  const { window, document } = await createLightDom();
  const scope = globalThis as { window?: unknown; document?: unknown };
  const withDom = async <T>(run: () => Promise<T> | T): Promise<T> => {
    scope.window = window;
    scope.document = document;
    try {
      return await run();
    } finally {
      scope.window = undefined;
      scope.document = undefined;
    }
  };
  const converter: Converter = {
    markdownToBlocks: (markdown) => withDom(async () => JSON.parse(JSON.stringify(await editor.tryParseMarkdownToBlocks(markdown))) as unknown[]),
    blocksToMarkdown: (blocks) => withDom(() => blocksToMarkdown(blocks as NoteSchema["Block"][], editor.pmSchema, editor, { document })),
  };
  await converter.blocksToMarkdown(await converter.markdownToBlocks("*warm* up"));
  return converter;
}
