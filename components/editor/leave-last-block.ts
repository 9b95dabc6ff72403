import type { NoteSchema } from "@/lib/body/schema";

type NoteBlockEditor = NoteSchema["BlockNoteEditor"];
type AnyBlock = { id: string; type: string; content?: unknown; children: AnyBlock[] };

/**
 * The caret can always leave the note's last block by keyboard. BlockNote
 * draws the empty line after the last block as a decoration that only a click
 * fills, so ArrowDown on the last line of a table, code block or list at the
 * end of a note went nowhere (and what was typed next landed in the table).
 * There, ArrowDown adds an empty paragraph after the note's last block and
 * moves the caret into it, as the click does. For the editor's keydown
 * events; it acts before the key's default, so the next key lands there.
 */
export function leaveLastBlockOnArrowDown(editor: NoteBlockEditor, event: KeyboardEvent): void {
  if (event.key !== "ArrowDown" || event.shiftKey || event.altKey || event.metaKey || event.ctrlKey || event.isComposing) return;
  const view = editor.prosemirrorView;
  if (!view || !editor.isEditable || !view.state.selection.empty) return;
  const last = editor.document.at(-1) as AnyBlock | undefined;
  // An empty paragraph at the end is reached by the arrow itself.
  if (!last || isEmptyParagraph(last)) return;
  // The caret is in the note's last block at its deepest, on that block's last line.
  let deepest = last;
  while (deepest.children.length > 0) deepest = deepest.children.at(-1)!;
  if (editor.getTextCursorPosition().block.id !== deepest.id || !view.endOfTextblock("down")) return;
  // In a table, on its last row.
  const { node } = view.domAtPos(view.state.selection.head);
  const row = (node instanceof Element ? node : node.parentElement)?.closest("tr");
  const rows = row?.closest("table")?.rows;
  if (row && rows && rows[rows.length - 1] !== row) return;
  event.preventDefault();
  const [inserted] = editor.insertBlocks([{ type: "paragraph" }], last.id, "after");
  if (inserted) editor.setTextCursorPosition(inserted, "start");
}

function isEmptyParagraph(block: AnyBlock): boolean {
  return block.type === "paragraph" && Array.isArray(block.content) && block.content.length === 0 && block.children.length === 0;
}
