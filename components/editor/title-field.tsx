"use client";

import type { Ref, TextareaHTMLAttributes } from "react";
import { UNTITLED } from "@/lib/notes/editor-types";
import { NOTE_TITLE_MAX } from "@/lib/notes/schemas";

type TitleFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onKeyDown"> & {
  id: string;
  ref?: Ref<HTMLTextAreaElement>;
  /** Enter or ↓ (without Shift) goes on to the body: a title is one line. */
  onToBody: () => void;
};

/** A note's title, as the editor and the new note before it exists both show it. */
export function TitleField({ id, ref, onToBody, ...textarea }: TitleFieldProps) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Title
      </label>
      <textarea
        ref={ref}
        id={id}
        className="title-input"
        rows={1}
        dir="auto"
        placeholder={UNTITLED}
        maxLength={NOTE_TITLE_MAX}
        autoComplete="off"
        spellCheck
        onKeyDown={(event) => {
          if (event.key === "Enter" || (event.key === "ArrowDown" && !event.shiftKey)) {
            event.preventDefault();
            onToBody();
          }
        }}
        {...textarea}
      />
    </>
  );
}
