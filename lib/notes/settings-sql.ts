import { Prisma } from "@/lib/db/client";
import { INITIAL_SETTINGS, SETTING_KEYS, settingColumn, type NoteSettings } from "@/lib/notes/settings";

// The settings (lib/notes/settings.ts) in the SQL that moves a note's row
// whole: each piece follows the columns before it, so it starts with a comma.
// Columns are the constants of the settings list, never input.

const column = (key: (typeof SETTING_KEYS)[number], alias?: string) => (alias ? `${alias}.` : "") + settingColumn(key);

/** `, pinned` (`, g.pinned` with an alias): the settings' columns. */
export const settingColumnsSql = (alias?: string) => Prisma.raw(SETTING_KEYS.map((key) => `, ${column(key, alias)}`).join(""));

/** `, t.pinned AS "pinned"`: the settings' columns read under their keys (`read_only AS "readOnly"`). */
export const settingsByKeySql = (alias: string) => Prisma.raw(SETTING_KEYS.map((key) => `, ${column(key, alias)} AS "${key}"`).join(""));

/** `, pinned = EXCLUDED.pinned`: an upsert taking every setting from the row it inserts. */
export const settingsFromExcludedSql = () => Prisma.raw(SETTING_KEYS.map((key) => `, ${column(key)} = EXCLUDED.${column(key)}`).join(""));

/** `, value`: each setting's value for an insert, its initial value where not given. */
export const settingValuesSql = (given: Partial<NoteSettings>) =>
  Prisma.join(SETTING_KEYS.map((key) => Prisma.sql`, ${given[key] ?? INITIAL_SETTINGS[key]}`), "");

/** `pinned = value` for each setting given (an update's SET, or a condition with an alias). */
export const settingEqualsSql = (given: Partial<NoteSettings>, alias?: string): Prisma.Sql[] =>
  SETTING_KEYS.flatMap((key) => (given[key] === undefined ? [] : [Prisma.sql`${Prisma.raw(column(key, alias))} = ${given[key]}`]));
