import { z } from "zod";

/**
 * A note's settings: the values it holds beside its title, body and tags
 * (today whether it is pinned). Each is declared once, here, and every layer
 * reads this list: the wire form and its write schemas, the columns of
 * notes, trashed_notes and note_revisions (the same name in all three), the
 * trash and its restore, a revision and its restore, the editor's values,
 * its draft and its merge, and the history's words for a change. A new
 * setting is an entry here, its column in the three models of
 * prisma/schema.prisma (with a migration), and the revision policy's
 * comparison in prisma/definitions/note_revisions.sql. Values are scalars,
 * never null (a revision's null is a setting it did not record): they compare
 * with ===.
 */
export const NOTE_SETTINGS = {
  pinned: {
    schema: z.boolean(),
    initial: false,
    about: {
      create: "Pin the new note; default false.",
      update: "Pin (true) or unpin (false) the note; like any write, it bumps the version and updatedAt.",
      note: "Whether the note is pinned.",
      revision: "Whether the note was pinned at this revision (null in revisions recorded before pins were kept).",
    },
    /** A version's change in the history, and how a version differs from the note now. */
    changed: (pinned: boolean) => (pinned ? "Pinned" : "Unpinned"),
    differs: (pinned: boolean) => (pinned ? "This version is pinned." : "This version is not pinned."),
  },
};

type Definitions = typeof NOTE_SETTINGS;
export type SettingKey = keyof Definitions;
export type NoteSettings = { [K in SettingKey]: Definitions[K]["initial"] };
/** Settings as a revision recorded them: null in revisions recorded before the setting was kept. */
export type RecordedSettings = { [K in SettingKey]: NoteSettings[K] | null };

export const SETTING_KEYS = Object.keys(NOTE_SETTINGS) as SettingKey[];

const entries = <T>(make: (key: SettingKey) => T) => Object.fromEntries(SETTING_KEYS.map((key) => [key, make(key)]));

/** The settings' column in notes, trashed_notes and note_revisions (Prisma maps camelCase fields to snake_case columns). */
export const settingColumn = (key: SettingKey): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The settings a new note has unless given. */
export const INITIAL_SETTINGS = entries((key) => NOTE_SETTINGS[key].initial) as NoteSettings;

/** Prisma `select` of the settings. */
export const SETTINGS_SELECT = entries(() => true) as { [K in SettingKey]: true };

/** The settings of anything holding them (a note, a row, a revision). */
export const settingsOf = <T extends { [K in SettingKey]: unknown }>(holder: T) => entries((key) => holder[key]) as Pick<T, SettingKey>;

/** The settings `given` holds, leaving out those it does not (a partial write, a draft, a revision's unrecorded ones). */
export const givenSettings = (given: Partial<Record<SettingKey, unknown>>) =>
  Object.fromEntries(SETTING_KEYS.flatMap((key) => (given[key] === undefined || given[key] === null ? [] : [[key, given[key]]]))) as Partial<NoteSettings>;

/** The settings of `holder` for which `keep` holds. */
export const settingsWhere = (holder: NoteSettings, keep: (key: SettingKey) => boolean) =>
  Object.fromEntries(SETTING_KEYS.filter(keep).map((key) => [key, holder[key]])) as Partial<NoteSettings>;

/** Wire schemas: of a note, of a create's and an update's optional settings, and of a revision's (nullable). */
export const SETTINGS_SHAPE = {
  note: entries((key) => NOTE_SETTINGS[key].schema.meta({ description: NOTE_SETTINGS[key].about.note })) as { [K in SettingKey]: Definitions[K]["schema"] },
  create: entries((key) => NOTE_SETTINGS[key].schema.optional().meta({ description: NOTE_SETTINGS[key].about.create })) as {
    [K in SettingKey]: z.ZodOptional<Definitions[K]["schema"]>;
  },
  update: entries((key) => NOTE_SETTINGS[key].schema.optional().meta({ description: NOTE_SETTINGS[key].about.update })) as {
    [K in SettingKey]: z.ZodOptional<Definitions[K]["schema"]>;
  },
  revision: entries((key) => NOTE_SETTINGS[key].schema.nullable().meta({ description: NOTE_SETTINGS[key].about.revision })) as {
    [K in SettingKey]: z.ZodNullable<Definitions[K]["schema"]>;
  },
  /** The browser's save: the values alone. */
  save: entries((key) => NOTE_SETTINGS[key].schema.optional()) as { [K in SettingKey]: z.ZodOptional<Definitions[K]["schema"]> },
};

/** `mine` where the person changed a setting from `base`, else `theirs`: a write made elsewhere merged into the page's. */
export const mergeSettings = (base: NoteSettings, mine: NoteSettings, theirs: NoteSettings): NoteSettings =>
  entries((key) => (mine[key] === base[key] ? theirs[key] : mine[key])) as NoteSettings;

/** The history's words for the settings a version changed (none for a value not recorded on either side). */
export function settingChanges(before: RecordedSettings, after: RecordedSettings): string[] {
  return SETTING_KEYS.flatMap((key) => {
    const [was, is] = [before[key], after[key]];
    return was === null || is === null || was === is ? [] : [NOTE_SETTINGS[key].changed(is)];
  });
}

/** How a version's recorded settings differ from the note's now, in the history's words. */
export function settingDifferences(version: RecordedSettings, now: NoteSettings): string[] {
  return SETTING_KEYS.flatMap((key) => (version[key] === null || version[key] === now[key] ? [] : [NOTE_SETTINGS[key].differs(version[key])]));
}

/** Whether a value read from a draft (kept in the browser) is a valid value of each setting it holds. */
export const validSettings = (draft: Partial<Record<SettingKey, unknown>>) =>
  SETTING_KEYS.every((key) => draft[key] === undefined || NOTE_SETTINGS[key].schema.safeParse(draft[key]).success);
