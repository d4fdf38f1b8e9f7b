import { describe, expect, it } from 'vitest';
import { operationsOf, schemaFields, schemaType } from './openapi';
import type { OpenApiDocument } from './types';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/devices/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      get: {
        summary: 'One device',
        tags: ['Devices'],
        parameters: [{ name: 'lang', in: 'header', schema: { type: 'string', enum: ['zh_CN', 'en_US'] } }],
        responses: { '200': { description: 'The device', content: { 'application/json': { schema: { $ref: '#/components/schemas/Device' } } } } },
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } } },
    schemas: {
      Device: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'integer', description: 'Device id' },
          tags: { type: 'array', items: { type: 'string' } },
          location: { type: 'object', properties: { lat: { type: ['number', 'null'] } } },
        },
      },
    },
  },
};

describe('OpenAPI reading', () => {
  it('merges allOf parts, the envelope and its data', () => {
    const envelope: OpenApiDocument = {
      ...doc,
      components: {
        ...doc.components,
        schemas: { ...doc.components!.schemas, Envelope: { type: 'object', required: ['code'], properties: { code: { type: 'integer' }, data: {} } } },
      },
    };
    const rows = schemaFields(envelope, {
      allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: { type: 'object', properties: { sn: { type: 'string' } } } } }],
    });
    expect(rows.map((r) => [r.name, r.type, r.required, r.depth])).toEqual([
      ['code', 'integer', true, 0],
      ['data', 'object', false, 0],
      ['sn', 'string', false, 1],
    ]);
  });

  it('lists operations with path parameters resolved and merged', () => {
    const [op] = operationsOf(doc);
    expect(op.method).toBe('get');
    expect(op.path).toBe('/devices/{id}');
    expect(op.tag).toBe('Devices');
    expect(op.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id', 'header:lang']);
  });

  it('names types shortly', () => {
    expect(schemaType(doc, { type: 'integer', format: 'int64' })).toBe('integer (int64)');
    expect(schemaType(doc, { type: 'array', items: { $ref: '#/components/schemas/Device' } })).toBe('Device[]');
    expect(schemaType(doc, { type: 'string', enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(schemaType(doc, { type: ['number', 'null'] })).toBe('number | null');
  });

  it('flattens an object schema into rows', () => {
    const rows = schemaFields(doc, { $ref: '#/components/schemas/Device' });
    expect(rows.map((r) => [r.name, r.type, r.required, r.depth])).toEqual([
      ['id', 'integer', true, 0],
      ['tags', 'string[]', false, 0],
      ['location', 'object', false, 0],
      ['lat', 'number | null', false, 1],
    ]);
  });
});
