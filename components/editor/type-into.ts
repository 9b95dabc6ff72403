import type { NoteBlockEditor } from "@/components/editor/block-editor";
import { paragraphsOf } from "@/lib/notes/editor-session";

/**
 * Keys typed one by one, about 0.4 ms each: more than a person types while a
 * page loads. Text past them (a paste) goes in as plain lines at once.
 */
const MAX_KEYS = 500;

/**
 * Puts text in the editor at the caret as if typed: each character through
 * the editor's input rules, each line break as Enter, so the Markdown
 * shortcuts a person would have typed there ("- ", "1. ", "# ", "> ", "[ ] ")
 * make their blocks. The suggestion menus ("/") are not opened: their
 * trigger characters are typed, not obeyed.
 */
export function typeInto(editor: NoteBlockEditor, text: string): void {
  const view = editor.prosemirrorView;
  if (!view) return;
  const inputRules = view.state.plugins.filter((plugin) => (plugin.spec as { isInputRules?: boolean }).isInputRules);
  const keys = [...text];
  for (const key of keys.slice(0, MAX_KEYS)) {
    if (key === "\n") {
      const enter = new KeyboardEvent("keydown", { key: "Enter" });
      if (!view.someProp("handleKeyDown", (handle) => handle(view, enter))) newLine(editor, "");
      continue;
    }
    const { from, to } = view.state.selection;
    const insert = () => view.state.tr.insertText(key, from, to);
    if (!inputRules.some((plugin) => plugin.props.handleTextInput?.call(plugin, view, from, to, key, insert))) view.dispatch(insert());
  }
  const [line, ...lines] = keys.slice(MAX_KEYS).join("").split("\n");
  if (line) view.dispatch(view.state.tr.insertText(line));
  if (lines.length > 0) newLine(editor, lines.join("\n"));
}

/** Paragraphs of `text` after the caret's block, the caret at the end of the last. */
function newLine(editor: NoteBlockEditor, text: string) {
  const inserted = editor.insertBlocks(paragraphsOf(text) as never, editor.getTextCursorPosition().block, "after");
  editor.setTextCursorPosition(inserted.at(-1)!, "end");
}
