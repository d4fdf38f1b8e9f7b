import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiSchema } from './types';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

export interface Operation {
  key: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
  parameters: OpenApiParameter[];
  tag: string;
}

/** The local object a "#/components/…" reference points at, or undefined. */
export function resolveRef<T>(doc: OpenApiDocument, ref: string | undefined): T | undefined {
  if (!ref || !ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node as T | undefined;
}

function resolved<T extends { $ref?: string }>(doc: OpenApiDocument, value: T): T {
  return value.$ref ? (resolveRef<T>(doc, value.$ref) ?? value) : value;
}

/** Every operation of the document, in its order, with path-level parameters merged in and references resolved. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    const shared = Array.isArray(item.parameters) ? (item.parameters as OpenApiParameter[]) : [];
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation || typeof operation !== 'object') continue;
      const own = (operation.parameters ?? []).map((p) => resolved(doc, p));
      const inherited = shared.map((p) => resolved(doc, p)).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      out.push({ key: `${method} ${path}`, method, path, operation, parameters: [...inherited, ...own], tag: operation.tags?.[0] ?? '' });
    }
  }
  return out;
}

/** An allOf schema as one object: the parts' properties merged, later parts winning. */
function merged(doc: OpenApiDocument, schema: OpenApiSchema, seen: string[] = []): OpenApiSchema {
  if (!schema.allOf) return schema;
  const properties: Record<string, OpenApiSchema> = {};
  const required: string[] = [];
  for (const raw of schema.allOf) {
    if (raw.$ref && seen.includes(raw.$ref)) continue;
    const part = merged(doc, raw.$ref ? (resolveRef<OpenApiSchema>(doc, raw.$ref) ?? {}) : raw, raw.$ref ? [...seen, raw.$ref] : seen);
    Object.assign(properties, part.properties ?? {});
    required.push(...(part.required ?? []));
  }
  return { type: 'object', description: schema.description, properties, required };
}

/** A short type for a schema: "string", "integer (int64)", "Device[]", "\"a\" | \"b\"". */
export function schemaType(doc: OpenApiDocument, schema: OpenApiSchema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref;
  if (schema.allOf) return 'object';
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return alternatives.map((alternative) => schemaType(doc, alternative)).join(' | ');
  if (schema.enum && schema.enum.length > 0) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join(' | ') : schema.type;
  if (type === 'array') return `${schemaType(doc, schema.items) || 'any'}[]`;
  const base = type ?? (schema.properties ? 'object' : 'any');
  const nullable = Array.isArray(schema.type) && schema.type.includes('null') ? ' | null' : '';
  return schema.format ? `${base} (${schema.format})${nullable}` : `${base}${nullable}`;
}

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description: string;
  depth: number;
}

/** The properties of an object schema as rows, nested objects indented, up to a depth. */
export function schemaFields(doc: OpenApiDocument, schema: OpenApiSchema | undefined, depth = 0, maxDepth = 3, seen: string[] = []): SchemaField[] {
  if (!schema || depth > maxDepth) return [];
  if (schema.allOf) return schemaFields(doc, merged(doc, schema, seen), depth, maxDepth, seen);
  if (schema.$ref) {
    if (seen.includes(schema.$ref)) return [];
    return schemaFields(doc, resolveRef<OpenApiSchema>(doc, schema.$ref), depth, maxDepth, [...seen, schema.$ref]);
  }
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    return schemaFields(doc, schema.items, depth, maxDepth, seen);
  }
  const rows: SchemaField[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const target = property.$ref ? resolveRef<OpenApiSchema>(doc, property.$ref) : property;
    rows.push({
      name,
      type: schemaType(doc, property),
      required: (schema.required ?? []).includes(name),
      description: property.description ?? target?.description ?? '',
      depth,
    });
    rows.push(...schemaFields(doc, property, depth + 1, maxDepth, property.$ref ? [...seen, property.$ref] : seen));
  }
  return rows;
}
