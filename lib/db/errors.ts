import { Prisma } from "@/lib/generated/prisma/client";

/** True for a Prisma known request error with this code (P2002 unique violation, P2025 record missing, …). */
export function isPrismaError(err: unknown, code: string): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === code;
}
