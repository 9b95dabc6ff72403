import { BlockNoteSchema, defaultBlockSpecs } from "@blocknote/core";

const checkListItem = defaultBlockSpecs.checkListItem;

/**
 * BlockNote's checklist item, with a name on its checkbox for screen readers
 * (BlockNote's own has none). Set as the box is made: changing the editor's
 * DOM afterwards would make the editor redraw the item.
 */
const namedCheckListItem: typeof checkListItem = {
  ...checkListItem,
  implementation: {
    ...checkListItem.implementation,
    render(...args) {
      const rendered = checkListItem.implementation.render.apply(this, args);
      const dom = rendered.dom as Element | DocumentFragment;
      dom.querySelector('input[type="checkbox"]')?.setAttribute("aria-label", "Done");
      return rendered;
    },
  },
};

/**
 * The one block schema of a note's body, for the browser editor and for any
 * server-side BlockNote work (Markdown/HTML conversion). A block type added
 * here is one the whole app understands.
 */
export const noteSchema = BlockNoteSchema.create({ blockSpecs: { ...defaultBlockSpecs, checkListItem: namedCheckListItem } });

export type NoteSchema = typeof noteSchema;

