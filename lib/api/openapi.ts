import { z } from "zod";
import { SESSION_COOKIE } from "@/lib/auth/session-cookie";
import { ErrorEnvelope, MessagesEnvelope } from "@/lib/schemas/message";
import { ERROR_STATUS } from "./errors";
import { ROUTE_METHODS, type Operation, type RouteMethod } from "./operation";

/**
 * The OpenAPI 3.1 document (docs/api.md, "Documentation"), generated from what each route declares (its withApi
 * options) and the zod schemas that validate its requests: request bodies are rendered as the JSON a client may send
 * (io: input), answers as the JSON we send (io: output), query and path parameters from the route's zod schemas.
 */

export interface ServedOperation {
  method: Lowercase<RouteMethod>;
  operation: Operation;
}

/** What a set of route modules serve: every exported method handler that carries its operation's declaration. */
export function servedOperations(modules: readonly Record<string, unknown>[]): ServedOperation[] {
  return modules.flatMap((mod) =>
    ROUTE_METHODS.flatMap((method) => {
      const operation = (mod[method] as { operation?: Operation } | undefined)?.operation;
      return operation ? [{ method: method.toLowerCase() as Lowercase<RouteMethod>, operation }] : [];
    }),
  );
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("A request or response schema needs an id: declare it with .meta({ id }).");
  return id;
}

/** The JSON schema of a schema and every schema it nests that has an id, each as one component. */
function renderComponents(schemas: z.ZodType[], io: "input" | "output"): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  const seen = new Set<string>();
  for (const schema of schemas) {
    const id = idOf(schema);
    if (seen.has(id)) continue;
    seen.add(id);
    registry.add(schema, { id });
  }
  const uri = (id: string) => `#/components/schemas/${id}`;
  const { schemas: rendered } = z.toJSONSchema(registry, { io, target: "draft-2020-12", unrepresentable: "any", uri });
  // Nested schemas with an id that were not listed come out under "__shared": make each a component of its own.
  const { __shared, ...listed } = rendered as Record<string, Record<string, unknown>>;
  const all = { ...listed, ...((__shared?.$defs as Record<string, Record<string, unknown>> | undefined) ?? {}) };
  const text = JSON.stringify(all).replaceAll("#/components/schemas/__shared#/$defs/", "#/components/schemas/");
  const out = JSON.parse(text) as Record<string, Record<string, unknown>>;
  for (const [id, value] of Object.entries(out)) {
    delete value.$schema;
    value.$id ??= uri(id);
  }
  return out;
}

function componentSchemas(served: ServedOperation[]): Record<string, unknown> {
  const outputs: z.ZodType[] = [ErrorEnvelope, MessagesEnvelope];
  const inputs: z.ZodType[] = [];
  for (const { operation } of served) {
    if (operation.body) inputs.push(operation.body);
    const response = operation.doc.response;
    if (response && !("files" in response)) outputs.push(response);
  }
  const output = renderComponents(outputs, "output");
  const input = renderComponents(inputs, "input");
  for (const [id, schema] of Object.entries(input)) {
    if (id in output && JSON.stringify(output[id]) !== JSON.stringify(schema)) {
      throw new Error(`Schema ${id} is both a request and an answer but differs between them; give each its own id.`);
    }
  }
  return { ...output, ...input };
}

/** The object schema's fields, through a preprocessing step if there is one (z.preprocess wraps it in a pipe). */
function fieldsOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.out as z.ZodType);
  return {};
}

function parameterSchema(field: z.ZodType): Record<string, unknown> {
  const {
    $schema: _schema,
    description: _description,
    ...rest
  } = z.toJSONSchema(field, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return rest;
}

/**
 * The query parameters that take a list (`status=a,b`): comma-separated, as docs/api.md says, so the document says
 * `explode: false` (OpenAPI's default for an array would have clients repeat the parameter instead). A list given
 * repeated anyway is read as one (lib/api/with-api.ts).
 */
export function listQueryParameters(query: z.ZodType | undefined): Set<string> {
  return new Set(
    Object.entries(fieldsOf(query))
      .filter(([, field]) => parameterSchema(field).type === "array")
      .map(([name]) => name),
  );
}

function parameters(method: Lowercase<RouteMethod>, operation: Operation): unknown[] {
  const path = Object.entries(fieldsOf(operation.params)).map(([name, field]) => ({
    name,
    in: "path",
    required: true,
    schema: parameterSchema(field),
  }));
  const lists = listQueryParameters(operation.query);
  const query = Object.entries(fieldsOf(operation.query)).map(([name, field]) => ({
    name,
    in: "query",
    required: !field.safeParse(undefined).success,
    ...(field.description ? { description: field.description } : {}),
    ...(lists.has(name) ? { style: "form", explode: false } : {}),
    schema: parameterSchema(field),
  }));
  const idempotency =
    method === "post"
      ? [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            schema: { type: "string", minLength: 1, maxLength: 255 },
          },
        ]
      : [];
  return [...path, ...query, ...idempotency];
}

const json = (schema: unknown) => ({ "application/json": { schema } });

/** An operation that takes a file: as a form (the file and the JSON body as `options`), or the file alone. */
function uploadContent(upload: NonNullable<Operation["upload"]>, body: unknown) {
  const file = { type: "string", contentMediaType: upload.types[0] };
  return {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: { file, options: { ...(body as object), description: "The JSON body, as text" } },
      },
      encoding: { options: { contentType: "application/json" } },
    },
    ...Object.fromEntries(
      upload.types.map((t) => [
        t,
        { schema: { type: "string", description: "The file itself; the JSON body in the Shipwell-Options header" } },
      ]),
    ),
  };
}
const errorResponse = (description: string) => ({ description, content: json(ref("Error")) });

/** A carrier failure: the carriers' messages, beside the keys the route always answers with (`rates: []`). */
function carrierFailureSchema(operation: Operation): unknown {
  const extra = Object.entries(operation.carrierFailure ?? {});
  if (extra.length === 0) return ref("CarrierFailure");
  return {
    type: "object",
    properties: {
      messages: { type: "array", items: ref("Message") },
      ...Object.fromEntries(extra.map(([key, value]) => [key, { const: value }])),
    },
    required: ["messages", ...extra.map(([key]) => key)],
    additionalProperties: false,
  };
}

function responses(operation: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, value] of Object.entries(operation.doc.responses)) {
    const code = Number(status);
    if (typeof value !== "string") {
      const either = { oneOf: [ref("Error"), carrierFailureSchema(operation)] };
      out[status] = { description: value.description, content: json(either) };
      continue;
    }
    const answer = operation.doc.response;
    if (code < 300) {
      out[status] = !answer
        ? { description: value }
        : "files" in answer
          ? {
              description: value,
              content: Object.fromEntries(
                answer.files.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
              ),
            }
          : { description: value, content: json(ref(idOf(answer))) };
    } else if (code === ERROR_STATUS.carrier_failed) {
      out[status] = { description: value, content: json(carrierFailureSchema(operation)) };
    } else {
      out[status] = errorResponse(value);
    }
  }
  if (operation.role) {
    out["403"] ??= errorResponse(
      `forbidden: a signed-in ${operation.role === "owner" ? "owner" : "owner or admin"} only`,
    );
  }
  // What any operation may answer, named by the error codes that share each status (not_configured is only
  // /api/inngest's, which this document does not describe).
  for (const code of ["400", "401", "429", "500", "503"]) {
    const codes = Object.entries(ERROR_STATUS).filter(([c, s]) => String(s) === code && c !== "not_configured");
    out[code] ??= errorResponse(codes.map(([c]) => c).join(" | "));
  }
  return out;
}

/** "/v1/shipments/{id}" → "Shipments". */
const tagOf = (route: string) => {
  const segment = route.split("/")[2] ?? "";
  return segment.charAt(0).toUpperCase() + segment.slice(1);
};

const documents = new WeakMap<readonly Record<string, unknown>[], Record<string, unknown>>();

export function openApiDocument(modules: readonly Record<string, unknown>[]): Record<string, unknown> {
  const cached = documents.get(modules);
  if (cached) return cached;
  const served = servedOperations(modules);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, operation } of served) {
    paths[operation.route] ??= {};
    paths[operation.route]![method] = {
      operationId: operation.doc.id,
      summary: operation.doc.summary,
      tags: [operation.doc.tag ?? tagOf(operation.route)],
      ...(operation.public ? { security: [] } : {}),
      parameters: parameters(method, operation),
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.optionalBody,
              content: {
                ...json(ref(idOf(operation.body))),
                ...(operation.upload ? uploadContent(operation.upload, ref(idOf(operation.body))) : {}),
              },
            },
          }
        : {}),
      responses: responses(operation),
    };
  }
  const document = {
    openapi: "3.1.0",
    info: {
      title: "Shipwell API",
      version: "1.0.0",
      description: "One API in front of many carriers: proxy mode (nothing stored) and managed mode. See docs/api.md.",
    },
    servers: [{ url: "/" }],
    security: [{ token: [] }, { session: [] }],
    components: {
      securitySchemes: {
        token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <API_KEY>`" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description: "The dashboard's session (writes need a same-origin `Origin` header)",
        },
      },
      schemas: componentSchemas(served),
    },
    paths,
  };
  documents.set(modules, document);
  return document;
}
