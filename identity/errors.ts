/** Failure of an identity admin operation, with a message fit for the operator. */
export class IdentityError extends Error {
  constructor(
    readonly code: "NOT_FOUND" | "INVALID_INPUT",
    message: string,
  ) {
    super(message);
  }
}
