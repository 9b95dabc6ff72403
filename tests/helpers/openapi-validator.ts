// The route table's modules are the app's (some import next/server): first, as in Next's server, the AsyncLocalStorage its request scope is made of.
import "next/dist/server/node-environment-baseline.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { API_ROUTES } from "@/lib/api/routes";

type Json = Record<string, any>;

/** What the check found for one response. */
export type ResponseCheck =
  | { kind: "operation"; problem?: string }
  /** A method, path or OPTIONS the document does not list: checked against what its description promises. */
  | { kind: "outside"; problem?: string }
  /** Not part of the API document (the browser's /api/auth/* routes). */
  | { kind: "skipped"; problem?: undefined };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/**
 * Checks real responses against the OpenAPI document the app serves (built
 * here from the same route table): the status must be declared for the
 * operation, the media type among its content, and a JSON body valid against
 * its schema. Methods and paths the document does not list must answer as its
 * description says: a 405 with an Allow header naming the listed methods, a
 * 204 to OPTIONS, a 404 for an unknown path, each failure with the Error body.
 */
export class OpenApiResponseValidator {
  readonly document: Json = buildOpenApiDocument("http://localhost", API_ROUTES);
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, "openapi");
    this.templates = Object.keys(this.document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
    }));
  }

  check(method: string, pathname: string, status: number, headers: Headers, body: string): ResponseCheck {
    if (pathname.startsWith("/api/auth/") || pathname === "/api/auth") return { kind: "skipped" };
    const template = this.templates.find(({ pattern }) => pattern.test(pathname))?.template;
    if (!template) {
      return { kind: "outside", problem: status === 404 ? this.errorBodyProblem(headers, body) : `unknown path answered ${status}, not 404` };
    }
    const item = this.document.paths[template] as Json;
    const verb = method.toLowerCase();
    const opName = verb === "head" && !item.head ? "get" : verb;
    const op = item[opName] as Json | undefined;
    if (!op) return { kind: "outside", problem: this.undeclaredMethodProblem(verb, item, status, headers, body) };

    const declared = op.responses[String(status)] ?? op.responses.default;
    if (!declared) return { kind: "operation", problem: `undeclared status ${status} (declared: ${Object.keys(op.responses).join(", ")})` };
    const content = declared.content as Json | undefined;
    if (verb === "head") return { kind: "operation" };
    if (body === "") {
      // A 200 or 4xx without a body where one is declared is as wrong as the reverse.
      return { kind: "operation", problem: content ? `empty body where ${Object.keys(content).join(" or ")} is declared` : undefined };
    }
    if (!content) return { kind: "operation", problem: `a body where none is declared: ${body.slice(0, 120)}` };
    const mediaType = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!(mediaType in content)) return { kind: "operation", problem: `undeclared media type ${mediaType || "(none)"} (declared: ${Object.keys(content).join(", ")})` };
    if (mediaType !== "application/json") return { kind: "operation" };
    const pointer = `#/paths/${escape(template)}/${opName}/responses/${status in op.responses ? status : "default"}/content/${escape(mediaType)}/schema`;
    return { kind: "operation", problem: this.schemaProblem(pointer, body) };
  }

  private undeclaredMethodProblem(verb: string, item: Json, status: number, headers: Headers, body: string): string | undefined {
    const listed = METHODS.filter((m) => m in item).map((m) => m.toUpperCase());
    const allow = new Set((headers.get("allow") ?? "").split(",").map((m) => m.trim().toUpperCase()).filter(Boolean));
    const missing = listed.filter((m) => !allow.has(m));
    if (verb === "options") {
      if (status !== 204 && status !== 200) return `OPTIONS answered ${status}`;
      return missing.length ? `OPTIONS Allow lacks ${missing.join(", ")}` : undefined;
    }
    if (status !== 405) return `${verb.toUpperCase()} is not listed for this path but answered ${status}, not 405`;
    const extra = [...allow].filter((m) => !listed.includes(m) && m !== "HEAD" && m !== "OPTIONS");
    if (missing.length || extra.length) return `405 Allow "${headers.get("allow")}" differs from the listed ${listed.join(", ")}`;
    return this.errorBodyProblem(headers, body);
  }

  private errorBodyProblem(headers: Headers, body: string): string | undefined {
    const mediaType = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType !== "application/json") return `error with media type ${mediaType || "(none)"}, not application/json`;
    return this.schemaProblem("#/components/schemas/Error", body);
  }

  private schemaProblem(pointer: string, body: string): string | undefined {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return `body is not JSON: ${body.slice(0, 120)}`;
    }
    // One form for every answer, JSON.stringify's: a note listed, read, written or replayed is the same bytes.
    const compact = JSON.stringify(json);
    if (compact !== body) {
      const at = [...compact].findIndex((char, i) => char !== body[i]);
      return `body is not compact JSON (first difference at ${at}): …${body.slice(Math.max(0, at - 40), at + 40)}…`;
    }
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${pointer}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(json)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message}`);
    return `body does not match the schema: ${errors.join("; ")} — ${body.slice(0, 200)}`;
  }
}

/** A JSON pointer segment. */
function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
