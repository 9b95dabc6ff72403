"use client";

import { useImperativeHandle, useLayoutEffect, useRef, type Ref, type TextareaHTMLAttributes } from "react";
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
  const field = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => field.current!, []);
  // The title wraps: the field grows to show every line (where CSS field-sizing is not supported).
  useLayoutEffect(() => {
    const element = field.current;
    if (!element || CSS.supports("field-sizing", "content")) return;
    const fit = () => {
      element.style.height = "auto";
      element.style.height = `${element.scrollHeight}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [textarea.value]);
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Title
      </label>
      <textarea
        ref={field}
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
