"use client";

// The BlockNote editor itself. Browser-only: loaded through next/dynamic with
// ssr: false from NoteEditor, never rendered on the server.
import "@blocknote/mantine/style.css";
import { BlockNoteEditor, isTouchDevice } from "@blocknote/core";
import { BlockNoteView } from "@blocknote/mantine";
import { DesktopFormattingToolbarController, FormattingToolbarController } from "@blocknote/react";
import { useEffect, useMemo } from "react";
import { leaveLastBlockOnArrowDown } from "@/components/editor/leave-last-block";
import { withBlockIds } from "@/components/editor/random-ids";
import { SlashMenu } from "@/components/editor/slash-menu";
import { uploadAttachment } from "@/components/editor/upload-attachment";
import { editorStart, unreadableBlocks } from "@/lib/body/document";
import { noteSchema, type NoteSchema } from "@/lib/body/schema";

export type NoteBlockEditor = NoteSchema["BlockNoteEditor"];

const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.keys(noteSchema.blockSpecs));

/** The editor, and why it shows the stored body only as text (null when it shows it as it is). */
function createEditor(
  content: unknown,
  contentText: string,
  uploadFile: (file: File, blockId?: string) => Promise<string>,
): { editor: NoteBlockEditor; unshown: string | null } {
  const start = editorStart(content, contentText, KNOWN_TYPES);
  try {
    // Ids given in one go: the editor would give each block its own, one random call apiece.
    return { editor: BlockNoteEditor.create({ schema: noteSchema, initialContent: (start.blocks && withBlockIds(start.blocks)) as never, uploadFile }), unshown: null };
  } catch (err) {
    // Blocks the editor cannot load (malformed JSON from an API client): their text, said so (the page keeps the body read-only).
    const text = editorStart(null, contentText, KNOWN_TYPES);
    return { editor: BlockNoteEditor.create({ schema: noteSchema, initialContent: text.blocks as never, uploadFile }), unshown: unreadableBlocks(err) };
  }
}

export default function BlockEditor({
  content,
  contentText,
  onChange,
  onReady,
  onUploadError,
  onUnshown,
  editable,
  label,
}: {
  /** Read once, when the editor is created; later changes go through the editor instance. */
  content: unknown;
  contentText: string;
  onChange: () => void;
  onReady: (editor: NoteBlockEditor) => void;
  /** A pasted, dropped or picked file the app refused or could not store: the reason, for the person. Read once, like `content` (pass a stable function). */
  onUploadError: (message: string) => void;
  /** The editor could not load the body's blocks and shows its text instead: why. */
  onUnshown: (reason: string) => void;
  editable: boolean;
  label: string;
}) {
  const { editor, unshown } = useMemo(
    () => {
      const made = createEditor(content, contentText, (file, blockId) =>
        uploadAttachment(file).catch((err: unknown) => {
          onUploadError(err instanceof Error ? err.message : String(err));
          // The empty image or file block made for it goes too: nothing half-added stays in the note.
          const block = blockId === undefined ? undefined : made.editor.getBlock(blockId);
          if (block && !(block.props as { url?: string }).url) made.editor.removeBlocks([block]);
          throw err;
        }),
      );
      return made;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- created once per mount on purpose
    [],
  );

  useEffect(() => {
    onReady(editor);
  }, [editor, onReady]);

  useEffect(() => {
    if (unshown) onUnshown(unshown);
  }, [unshown, onUnshown]);

  useEffect(() => {
    // The editable element gets a name for screen readers and tests.
    const element = editor.domElement;
    if (element) element.setAttribute("aria-label", label);
  });

  // BlockNote's formatting toolbar watches for an on-screen keyboard on every device, reading the
  // page's layout as it mounts (twice, 240 ms of a 2,000-block note's opening): only a touch device has one.
  return (
    <BlockNoteView
      editor={editor}
      onChange={onChange}
      onKeyDown={(event) => leaveLastBlockOnArrowDown(editor, event.nativeEvent)}
      editable={editable}
      formattingToolbar={false}
      slashMenu={false}
      data-testid="block-editor"
    >
      {isTouchDevice() ? <FormattingToolbarController /> : <DesktopFormattingToolbarController />}
      <SlashMenu />
    </BlockNoteView>
  );
}
