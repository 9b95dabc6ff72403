import { Prisma } from "@/lib/db/client";

// Owner scoping, written once: every statement on an account's rows says whose
// they are through these, so another account's row is as missing as one that
// never existed. `alias` is the table's alias in the statement, if it has one.

const column = (alias: string | undefined, name: string) => Prisma.raw(alias ? `${alias}.${name}` : name);

/** The account's rows: `user_id = <userId>`. */
export const ownedBy = (userId: string, alias?: string) => Prisma.sql`${column(alias, "user_id")} = ${userId}::uuid`;

/** The account's row with this id: `id = <id> AND user_id = <userId>`. */
export const ownedRow = (id: string, userId: string, alias?: string) => Prisma.sql`${column(alias, "id")} = ${id}::uuid AND ${ownedBy(userId, alias)}`;
