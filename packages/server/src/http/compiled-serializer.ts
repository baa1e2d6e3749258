import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * A serializer compiled once from the route's zod schema, turned into JSON Schema, by
 * fast-json-stringify (Fastify's own serializer), for the routes whose answers are the server's
 * hottest: the agents' check-ins. fastify-type-provider-zod's serializer runs zod over every
 * answer and then `JSON.stringify`; for the check-in's answer that was 8-16 µs of the 50-90 µs
 * a request costs Fastify on this machine (bench/README.md, session 32). Compiled, the answer
 * keeps the schema's shape (properties the schema does not name are left out, as zod's encode
 * leaves them out) but its values are not checked again: the types of the handler's return
 * already are, and these answers are built by the server alone.
 *
 * A schema JSON Schema cannot say (`z.void()` of a 204, a transform) keeps zod's serializer.
 */
// Generic over the route's schema type: Fastify types a route's compiler with the route's whole
// schema object, while it calls it with each answer's schema (here a zod type).
export function compiledSerializer<S>(route: FastifyRouteSchemaDef<S>): (data: unknown) => string {
  const schema = route.schema as unknown as z.ZodType;
  let jsonSchema: object;
  try {
    jsonSchema = z.toJSONSchema(schema, { target: 'draft-07', io: 'input' });
  } catch {
    return zodSerializerCompiler({ ...route, schema });
  }
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
}
