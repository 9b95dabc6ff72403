import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, as the OpenAPI document and the MCP tool list
 * describe arguments. A query string's boolean (`"true"` or `"false"`, read as
 * a boolean: queryBoolean in lib/notes/schemas.ts) is described as the boolean
 * it is: what a generated client sends and what an MCP client passes.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output", target?: "draft-7"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    target,
    unrepresentable: "any",
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === "string" && JSON.stringify(jsonSchema.enum) === '["true","false"]') {
        delete jsonSchema.enum;
        jsonSchema.type = "boolean";
      }
    },
  }) as JsonSchema;
  return rest;
}
