"use client";

import { BlockNoteContext, ComponentsContext, SuggestionMenuController, useBlockNoteContext, useComponentsContext, type Components } from "@blocknote/react";
import { forwardRef, useMemo, type ReactNode } from "react";

type EditableProps = Record<string, unknown> | undefined;

/**
 * The list of blocks the slash menu offers, named for assistive technology
 * (BlockNote's is a listbox without a name), and focusable from the keyboard,
 * as a list that scrolls must be; a press on it keeps the caret in the note.
 */
const SlashMenuRoot = forwardRef<HTMLDivElement, { id?: string; className?: string; children?: ReactNode }>(function SlashMenuRoot({ id, className, children }, ref) {
  return (
    <div ref={ref} id={id} className={`${className ?? ""} slash-menu-list`} role="listbox" aria-label="Blocks" tabIndex={0} onMouseDown={(event) => event.preventDefault()}>
      {children}
    </div>
  );
});

/**
 * BlockNote's slash menu ("/" for a block), as its default interface draws
 * it, with two things set right for screen readers: its list has a name, and
 * the editor does not say aria-expanded, which a text box may not carry
 * (aria-controls and aria-activedescendant, which it may, still point at the
 * list and its active option).
 */
export function SlashMenu() {
  const context = useBlockNoteContext();
  const components = useComponentsContext();
  const slashContext = useMemo(() => {
    const set = context?.setContentEditableProps;
    if (!context || !set) return context;
    const withoutExpanded = (props: EditableProps): EditableProps => {
      if (!props || !("aria-expanded" in props)) return props;
      const { "aria-expanded": _expanded, ...rest } = props;
      return rest;
    };
    return {
      ...context,
      setContentEditableProps: (update: EditableProps | ((props: EditableProps) => EditableProps)) =>
        set((props) => withoutExpanded(typeof update === "function" ? update(props) : update)),
    } as typeof context;
  }, [context]);
  const slashComponents = useMemo(
    (): Components | undefined => components && { ...components, SuggestionMenu: { ...components.SuggestionMenu, Root: SlashMenuRoot as Components["SuggestionMenu"]["Root"] } },
    [components],
  );
  return (
    <BlockNoteContext.Provider value={slashContext}>
      <ComponentsContext.Provider value={slashComponents}>
        <SuggestionMenuController triggerCharacter="/" shouldOpen={(state) => !state.selection.$from.parent.type.isInGroup("tableContent")} />
      </ComponentsContext.Provider>
    </BlockNoteContext.Provider>
  );
}
