import { diffArrays } from "diff";
import { inlineText } from "@/lib/body/content-text";
import { settingChanges, type RecordedSettings } from "@/lib/notes/settings";

/** One line of a readable comparison, or a run of unchanged lines left out. */
export type ChangeLine = { kind: "same" | "removed" | "added"; text: string } | { kind: "skipped"; count: number };

/** A note as history compares it. */
export type NoteState = { title: string; content: unknown; contentText: string };

/**
 * A line of a note as a person reads it: a block's text, or, for a block
 * without text of its own (an image, a file, a divider, a table), the block
 * named in brackets, "[image: photo.png]". `item` is that block's type.
 */
type Line = { text: string; item?: string };

type JsonRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is JsonRecord => typeof value === "object" && value !== null && !Array.isArray(value);

const MEDIA = new Set(["image", "video", "audio", "file"]);
// Deeply nested JSON from an API client must not exhaust the stack.
const MAX_DEPTH = 64;

function fileName(props: JsonRecord): string {
  if (typeof props.name === "string" && props.name.trim()) return props.name.trim();
  if (typeof props.url === "string" && props.url) return decodeURIComponent(props.url.split(/[?#]/)[0]!.split("/").at(-1) ?? "") || props.url;
  return "no file";
}

function collectLines(block: unknown, lines: Line[], depth: number): void {
  if (!isRecord(block) || depth > MAX_DEPTH) return;
  const type = typeof block.type === "string" ? block.type : "block";
  const props = isRecord(block.props) ? block.props : {};
  const content = block.content;
  if (isRecord(content) && content.type === "tableContent") {
    lines.push({ text: "[table]", item: "table" });
    for (const row of Array.isArray(content.rows) ? content.rows : []) {
      const cells = isRecord(row) && Array.isArray(row.cells) ? row.cells : [];
      const text = cells.map((cell) => (isRecord(cell) ? inlineText(cell.content) : inlineText(cell))).join(" | ");
      if (text.replace(/[ |]/g, "")) lines.push({ text });
    }
  } else if (MEDIA.has(type)) {
    lines.push({ text: `[${type}: ${fileName(props)}]`, item: type });
    if (typeof props.caption === "string" && props.caption.trim()) lines.push({ text: props.caption });
  } else if (content === undefined || content === null) {
    lines.push({ text: `[${type}]`, item: type });
  } else {
    const text = inlineText(content).replace(/[ \t]+$/g, "");
    // An empty block is not a line: the editor keeps one at the end of every note.
    if (text.trim()) lines.push({ text: type === "checkListItem" ? `${props.checked === true ? "[x]" : "[ ]"} ${text}` : text });
  }
  for (const child of Array.isArray(block.children) ? block.children : []) collectLines(child, lines, depth + 1);
}

/** A note's lines: its blocks when it has any, else its text (a note an agent wrote as text only). */
function noteLines(state: NoteState): Line[] {
  if (Array.isArray(state.content) && state.content.length > 0) {
    const lines: Line[] = [];
    for (const block of state.content) collectLines(block, lines, 0);
    return lines;
  }
  return state.contentText === "" ? [] : state.contentText.split("\n").map((text) => ({ text }));
}

const sameLine = (a: Line, b: Line) => a.text === b.text && a.item === b.item;

/**
 * How a note differs between two states, line by line (a block is a line;
 * an image, a file, a divider or a table is one too, named in brackets):
 * lines only in `before` are removed, lines only in `after` added, and
 * unchanged lines more than `context` away from a change are folded into one
 * "skipped" entry. The title is the first line when it changed. A difference
 * of formatting alone shows no line: see formattingDiffers.
 */
export function noteChanges(before: NoteState, after: NoteState, context = 2): ChangeLine[] {
  const changes: Exclude<ChangeLine, { kind: "skipped" }>[] = [];
  if (before.title !== after.title) {
    changes.push({ kind: "removed", text: `Title: ${before.title}` }, { kind: "added", text: `Title: ${after.title}` });
  }
  for (const part of diffArrays(noteLines(before), noteLines(after), { comparator: sameLine })) {
    const kind = part.removed ? "removed" : part.added ? "added" : "same";
    for (const line of part.value) changes.push({ kind, text: line.text });
  }
  const near = changes.map((_, index) => changes.slice(Math.max(0, index - context), index + context + 1).some((line) => line.kind !== "same"));
  const shown: ChangeLine[] = [];
  changes.forEach((line, index) => {
    if (near[index]) {
      shown.push(line);
      return;
    }
    const last = shown.at(-1);
    if (last?.kind === "skipped") last.count += 1;
    else shown.push({ kind: "skipped", count: 1 });
  });
  return shown;
}

// Props whose value here is what the editor assumes when the prop is absent:
// an agent's note (written as Markdown) and the editor's may differ in them
// and still look the same.
const DEFAULT_PROPS: Record<string, unknown> = {
  textColor: "default",
  backgroundColor: "default",
  textAlignment: "left",
  level: 1,
  isToggleable: false,
  checked: false,
  showPreview: true,
  caption: "",
  name: "",
  url: "",
};

/** A note's blocks as they look: without block ids, default props, empty styles or children, or trailing empty lines. */
function appearance(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    const items = value.map((item) => appearance(item, depth + 1));
    // The empty line the editor keeps at the end of every note is no difference.
    while (items.length > 0 && isRecord(items.at(-1)) && (items.at(-1) as JsonRecord).empty === true) items.pop();
    return items;
  }
  if (!isRecord(value)) return value;
  // An empty paragraph: an empty line, whatever its props.
  if (value.type === "paragraph" && inlineText(value.content).trim() === "" && !(Array.isArray(value.children) && value.children.length > 0)) return { empty: true };
  const shown: JsonRecord = {};
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    if (key === "id") continue;
    if (key === "props" && isRecord(item)) {
      shown.props = Object.fromEntries(Object.keys(item).sort().filter((prop) => item[prop] !== DEFAULT_PROPS[prop]).map((prop) => [prop, item[prop]]));
      continue;
    }
    if ((key === "styles" && isRecord(item) && Object.keys(item).length === 0) || (key === "children" && Array.isArray(item) && item.length === 0)) continue;
    shown[key] = appearance(item, depth + 1);
  }
  return shown;
}

/**
 * Whether two states with the same lines (see noteChanges) still differ in
 * how they look: colours, bold or italic, alignment, a heading's level,
 * empty lines. Block ids alone are no difference.
 */
export function formattingDiffers(before: NoteState, after: NoteState): boolean {
  if (!Array.isArray(before.content) || !Array.isArray(after.content)) return false;
  return JSON.stringify(appearance(before.content)) !== JSON.stringify(appearance(after.content));
}

/** How one version differs from the version before it, for the history's list. */
export type RevisionChange = {
  /** The first version of the note: nothing before it. */
  created: boolean;
  title: boolean;
  /** Lines of text added and removed. */
  linesAdded: number;
  linesRemoved: number;
  /** Blocks without text of their own, by type: how many were added and removed. */
  items: Record<string, { added: number; removed: number }>;
  /** Nothing above changed, but how the note looks did. */
  formatting: boolean;
  tags: boolean;
  /** The settings this version changed, in the history's words ("Pinned"). */
  settings: string[];
};

type VersionState = NoteState & { tagIds: string[] } & RecordedSettings;

/** What changed from `before` (null: the note's first version) to `after`. */
export function revisionChange(before: VersionState | null, after: VersionState): RevisionChange {
  const change: RevisionChange = { created: before === null, title: false, linesAdded: 0, linesRemoved: 0, items: {}, formatting: false, tags: false, settings: [] };
  const base: VersionState = before ?? { ...after, content: [], contentText: "" };
  change.title = before !== null && before.title !== after.title;
  for (const part of diffArrays(noteLines(base), noteLines(after), { comparator: sameLine })) {
    if (!part.added && !part.removed) continue;
    for (const line of part.value) {
      if (line.item) {
        const counts = (change.items[line.item] ??= { added: 0, removed: 0 });
        if (part.added) counts.added += 1;
        else counts.removed += 1;
      } else if (part.added) change.linesAdded += 1;
      else change.linesRemoved += 1;
    }
  }
  const textChanged = change.linesAdded + change.linesRemoved > 0 || Object.keys(change.items).length > 0;
  change.formatting = before !== null && !textChanged && formattingDiffers(base, after);
  change.tags = before !== null && [...before.tagIds].sort().join() !== [...after.tagIds].sort().join();
  change.settings = before === null ? [] : settingChanges(before, after);
  return change;
}

const ITEM_NAMES: Record<string, [string, string]> = {
  image: ["Image", "images"],
  video: ["Video", "videos"],
  audio: ["Audio file", "audio files"],
  file: ["File", "files"],
  table: ["Table", "tables"],
  divider: ["Divider", "dividers"],
};

function itemPhrase(type: string, { added, removed }: { added: number; removed: number }): string {
  const [one, many] = ITEM_NAMES[type] ?? [`${type.charAt(0).toUpperCase()}${type.slice(1)} block`, `${type} blocks`];
  if (added > 0 && removed > 0) return added === 1 && removed === 1 ? `${one} changed` : `${Math.max(added, removed)} ${many} changed`;
  const count = added || removed;
  return `${count === 1 ? one : `${count} ${many}`} ${added ? "added" : "removed"}`;
}

function linesPhrase(added: number, removed: number): string | null {
  const lines = (count: number) => (count === 1 ? "1 line" : `${count} lines`);
  if (added && removed) return `${lines(added)} added, ${removed} removed`;
  if (added) return `${lines(added)} added`;
  if (removed) return `${lines(removed)} removed`;
  return null;
}

/** A restore's version: its time as the reader's clock shows it, and who wrote it. */
export type RestoredVersion = { at: string; authorKind: string };

/** "Restored your version from 14:05", "Restored the agent's version from 14:02". */
export function describeRestore({ at, authorKind }: RestoredVersion): string {
  const whose = authorKind === "browser" ? "your version" : authorKind === "api" || authorKind === "mcp" ? "the agent's version" : "the version";
  return `Restored ${whose} from ${at}`;
}

/**
 * The change in a few words: "Title changed · 2 lines added, 1 removed",
 * "Image added", "Restored your version from 14:05", "Restored the agent's
 * version from 14:02".
 */
export function describeRevisionChange(change: RevisionChange, restoredFrom?: RestoredVersion): string {
  if (restoredFrom !== undefined) return describeRestore(restoredFrom);
  const parts: string[] = [];
  if (change.created) parts.push("Created");
  if (change.title) parts.push("Title changed");
  const lines = linesPhrase(change.linesAdded, change.linesRemoved);
  if (lines) parts.push(lines);
  for (const [type, counts] of Object.entries(change.items)) parts.push(itemPhrase(type, counts));
  if (change.formatting) parts.push("Formatting changed");
  if (change.tags) parts.push("Tags changed");
  parts.push(...change.settings);
  if (parts.length === 0) return "No visible change";
  if (parts.length === 1 && change.created) return "Created empty";
  return parts.join(" · ");
}
