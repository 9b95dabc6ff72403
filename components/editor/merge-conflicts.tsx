import type { MergeChoice } from "@/lib/notes/editor-session";
import { contentToText } from "@/lib/body/content-text";


export type ChoiceAction = "theirs" | "both" | "mine";

const preview = (text: string) => {
  const trimmed = text.trim();
  if (!trimmed) return "(no text)";
  return trimmed.length > 400 ? `${trimmed.slice(0, 400)}…` : trimmed;
};

function describe(choice: MergeChoice): { heading: string; mine: string; theirs: string; actions: { action: ChoiceAction; label: string }[] } {
  if ("title" in choice) {
    return {
      heading: "The title was changed here and elsewhere",
      mine: choice.title.mine,
      theirs: choice.title.theirs,
      actions: [
        { action: "theirs", label: "Use their title" },
        { action: "mine", label: "Keep mine" },
      ],
    };
  }
  const { conflict } = choice;
  if (conflict.kind === "both") {
    return {
      heading: "This block was changed here and elsewhere",
      mine: contentToText([conflict.mine]),
      theirs: contentToText([conflict.theirs]),
      actions: [
        { action: "theirs", label: "Use theirs" },
        { action: "both", label: "Keep both" },
        { action: "mine", label: "Keep mine" },
      ],
    };
  }
  if (conflict.kind === "theirs_deleted") {
    return {
      heading: "A block you changed was deleted elsewhere",
      mine: contentToText([conflict.mine]),
      theirs: "(deleted)",
      actions: [
        { action: "theirs", label: "Delete it" },
        { action: "mine", label: "Keep it" },
      ],
    };
  }
  return {
    heading: "A block you deleted was changed elsewhere",
    mine: "(deleted)",
    theirs: contentToText([conflict.theirs]),
    actions: [
      { action: "theirs", label: "Bring theirs back" },
      { action: "mine", label: "Leave it deleted" },
    ],
  };
}

/**
 * The places where a write made elsewhere and the person's own typing changed
 * the same thing. The person's version is what the note shows (and saves);
 * theirs waits here, beside it, until the person picks.
 */
export function MergeConflicts({ choices, onPick }: { choices: MergeChoice[]; onPick: (choice: MergeChoice, action: ChoiceAction) => void }) {
  if (choices.length === 0) return null;
  return (
    <section className="banner merge-conflicts" aria-labelledby="merge-conflicts-title">
      <p className="banner-title" id="merge-conflicts-title">
        {choices.length === 1 ? "One change to review" : `${choices.length} changes to review`}
      </p>
      <p>Someone (perhaps one of your agents) changed this note while you were editing it. Their other changes are already in the note; here yours and theirs differ, and yours is kept until you pick.</p>
      <ul className="merge-choices">
        {choices.map((choice) => {
          const shown = describe(choice);
          return (
            <li key={choice.key} className="merge-choice" data-testid="merge-choice" aria-label={shown.heading}>
              <p className="merge-choice-heading">{shown.heading}</p>
              <div className="merge-sides">
                {(["mine", "theirs"] as const).map((side) => (
                  <div key={side}>
                    <p className="merge-side-label">{side === "mine" ? "Yours" : "Theirs"}</p>
                    <div className="banner-preview" data-side={side}>
                      {preview(shown[side])}
                    </div>
                  </div>
                ))}
              </div>
              <div className="actions">
                {shown.actions.map(({ action, label }, index) => (
                  <button key={action} type="button" className={index === 0 ? "btn btn-primary btn-sm" : "btn btn-sm"} onClick={() => onPick(choice, action)}>
                    {label}
                  </button>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
