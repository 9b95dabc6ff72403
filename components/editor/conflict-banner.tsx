import { ChoiceBanner } from "@/components/editor/choice-banner";
import { RelativeTime } from "@/components/ui/relative-time";
import type { EditorNote } from "@/lib/notes/editor-types";

/**
 * Shown when a save found the note changed since this editor loaded it.
 * Nothing has been overwritten; the person decides which version stays.
 */
export function ConflictBanner({ current, now, onReload, onKeepMine }: { current: EditorNote; now: number; onReload: () => void; onKeepMine: () => void }) {
  const preview = current.contentText.trim();
  return (
    <ChoiceBanner
      titleId="conflict-title"
      title="This note was changed elsewhere while you were editing"
      primary={{ label: "Reload their version", onClick: onReload }}
      secondary={{ label: "Keep mine", onClick: onKeepMine }}
      consequences="“Reload” shows the newer version and drops your unsaved changes; “Keep mine” saves what you see over it."
    >
      <p>
        Someone (perhaps one of your agents) saved a newer version <RelativeTime iso={current.updatedAt} now={now} />. Your latest changes are
        still here but have not been saved, so nothing was overwritten.
      </p>
      <div className="banner-preview" aria-label="The newer version">
        <strong>{current.title}</strong>
        {preview ? `\n${preview.length > 600 ? `${preview.slice(0, 600)}…` : preview}` : "\n(no text)"}
      </div>
    </ChoiceBanner>
  );
}
