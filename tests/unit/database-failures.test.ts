import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isWriteConflict, postgresCode } from "@/lib/errors/database";
import { AppError, toErrorResponse } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// Prisma reports a server error as a known request error whose meta carries
// the driver adapter's error with the SQLSTATE, as seen on PostgreSQL 15.
function prismaError(code: string, message = "from the server") {
  return new Prisma.PrismaClientKnownRequestError(`Database error. Code: \`${code}\`.`, {
    code: "P2010",
    clientVersion: "7",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: code, originalMessage: message, kind: "postgres", code } } },
  });
}

describe("database failures: one meaning each", () => {
  it.each(["57P01", "57P03", "25006", "57014", "55P03", "53300", "25P03", "08006"])("%s is unavailability: 503 with Retry-After", async (code) => {
    const err = prismaError(code);
    expect(postgresCode(err)).toBe(code);
    expect(isDatabaseUnavailable(err)).toBe(true);
    const response = toErrorResponse(err);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({ error: "Service temporarily unavailable — retry shortly", requestId: expect.any(String) });
  });

  it.each(["40001", "40P01"])("%s is a lost race, retried by writeTransaction, and a 503 if it escapes", (code) => {
    const err = prismaError(code);
    expect(isWriteConflict(err)).toBe(true);
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(toErrorResponse(err).status).toBe(503);
  });

  it("pool, socket and transaction-manager failures without a SQLSTATE are unavailability too", () => {
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    const closed = new Prisma.PrismaClientKnownRequestError("Transaction API error: Transaction already closed", { code: "P2028", clientVersion: "7" });
    expect(isDatabaseUnavailable(closed)).toBe(true);
  });

  it("other database errors are not: a constraint violation or bad SQL stays a 500", () => {
    for (const code of ["23505", "22021", "42601"]) {
      expect(isDatabaseUnavailable(prismaError(code))).toBe(false);
      expect(isWriteConflict(prismaError(code))).toBe(false);
    }
    expect(toErrorResponse(new Error("boom")).status).toBe(500);
  });

  it("a 503 AppError thrown anywhere says when to retry", () => {
    const response = toErrorResponse(new AppError("CONVERSIONS_BUSY"));
    expect(response.headers.get("retry-after")).toBe("1");
  });
});
