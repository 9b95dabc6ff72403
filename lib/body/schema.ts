import { BlockNoteSchema, createInlineContentSpec, defaultBlockSpecs, defaultInlineContentSpecs } from "@blocknote/core";

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
 * An image inside a line of text (Markdown's `![alt](url "title")` among
 * words), or inside a link (`[![alt](url)](href)`): an image block stands
 * alone on its line, and a link holds only text.
 */
const inlineImage = createInlineContentSpec(
  {
    type: "inlineImage",
    content: "none",
    propSchema: { url: { default: "" }, alt: { default: "" }, title: { default: "" }, href: { default: "" } },
  } as const,
  {
    render(inlineContent) {
      const { url, alt, title, href } = inlineContent.props;
      const image = document.createElement("img");
      image.src = url;
      image.alt = alt;
      if (title) image.title = title;
      image.className = "inline-image";
      if (!href) return { dom: image };
      const link = document.createElement("a");
      link.href = href;
      link.rel = "noopener noreferrer nofollow";
      link.append(image);
      return { dom: link };
    },
  },
);

/**
 * The one block schema of a note's body, for the browser editor and for any
 * server-side BlockNote work (Markdown/HTML conversion). A block type added
 * here is one the whole app understands.
 */
export const noteSchema = BlockNoteSchema.create({
  blockSpecs: { ...defaultBlockSpecs, checkListItem: namedCheckListItem },
  inlineContentSpecs: { ...defaultInlineContentSpecs, inlineImage },
});

export type NoteSchema = typeof noteSchema;

