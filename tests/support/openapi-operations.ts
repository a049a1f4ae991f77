/** The operations of the OpenAPI document a server serves, as attack and fuzz runs walk them. */

/** The part of JSON Schema the served document's request schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  $ref?: string;
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}

export interface DocumentedOperation {
  method: string;
  path: string;
  /** Reachable without credentials: the document marks it with an empty `security`. */
  public: boolean;
  pathParameters: string[];
  hasJsonBody: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: OperationParameter[];
        security?: unknown[];
        requestBody?: { content: Record<string, unknown> };
      }
    >
  >;
}

export function documentedOperations(doc: unknown): DocumentedOperation[] {
  return Object.entries((doc as OpenApiDocument).paths).flatMap(([apiPath, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: apiPath,
      public: Array.isArray(operation.security) && operation.security.length === 0,
      pathParameters: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      hasJsonBody: Boolean(operation.requestBody?.content['application/json']),
    })),
  );
}

/** The operation's path with every `{param}` replaced by `value(name)` (inserted as given, not encoded). */
export function fillPath(operation: DocumentedOperation, value: (name: string) => string): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
}
