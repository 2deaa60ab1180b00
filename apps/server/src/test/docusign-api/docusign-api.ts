import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * DocuSign's own description of the eSignature REST API v2.1 (Swagger 2.0), trimmed to what the
 * adapter calls (README.md beside this file), as a checker of requests and answers. The DocuSign
 * fake runs every request through it, so each test that drives the adapter through the fake also
 * checks that DocuSign would understand what the adapter sends.
 *
 * Stricter than DocuSign in one respect, on purpose: an object property the description does not
 * define is an error. DocuSign ignores unknown properties silently, so a misspelt or invented one
 * would look like it worked while DocuSign never applied it.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'body' | 'formData';
  required?: boolean;
  type?: string;
  enum?: unknown[];
  schema?: object;
}
interface Operation {
  operationId: string;
  consumes?: string[];
  produces?: string[];
  parameters?: Parameter[];
  responses: Record<string, { schema?: object }>;
}
interface Description {
  swagger: string;
  basePath: string;
  consumes: string[];
  produces: string[];
  paths: Record<string, { parameters?: Parameter[] } & Partial<Record<string, Operation>>>;
  definitions: Record<string, object>;
}

export interface RestRequest {
  method: string;
  /** The path below the description's base path (`/restapi`): `/v2.1/accounts/…`. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  accept: string | undefined;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

export interface RequestCheck {
  /** The operation the request is, when method and path name one. */
  operationId: string | undefined;
  /** What does not match the description; empty when the request conforms. */
  problems: string[];
}

export interface DocusignApi {
  /** `/restapi`: where the description's paths start. */
  basePath: string;
  checkRequest(request: RestRequest): RequestCheck;
  /** Problems of a JSON answer of an operation, by the schema the description gives its status. */
  checkResponse(operationId: string, status: number, body: unknown): string[];
  /** Problems of a value that is to be the named definition (`envelope`, …). */
  checkDefinition(name: string, value: unknown): string[];
}

/**
 * JSON Schema keywords that mean the same in Swagger 2.0's schema objects (a subset of draft-04) and
 * in draft-07, which Ajv implements. The draft-04 keywords Ajv would read differently
 * (`exclusiveMinimum`/`exclusiveMaximum` as booleans, `id`) and Swagger's own (`discriminator`,
 * `xml`) are not among them: should DocuSign's description start using them, loading fails instead
 * of checking with another meaning.
 */
const SHARED_KEYWORDS = new Set([
  '$ref',
  'type',
  'format',
  'properties',
  'additionalProperties',
  'items',
  'required',
  'enum',
  'allOf',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'default',
  'readOnly',
]);

/** Swagger 2.0's numeric formats, which JSON Schema does not know. */
const INT32 = 2 ** 31;
const SWAGGER_FORMATS = {
  int32: {
    type: 'number' as const,
    validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32,
  },
  int64: { type: 'number' as const, validate: (n: number) => Number.isInteger(n) },
  float: { type: 'number' as const, validate: () => true },
  double: { type: 'number' as const, validate: () => true },
};

const DOCUMENT_ID = 'esignature';

let loaded: DocusignApi | undefined;

/** The checker of the trimmed description committed beside this file (read once). */
export function docusignApi(): DocusignApi {
  loaded ??= createDocusignApi(
    JSON.parse(readFileSync(new URL('./esignature-v2.1.json', import.meta.url), 'utf8')) as Description,
  );
  return loaded;
}

export function createDocusignApi(description: Description): DocusignApi {
  if (description.swagger !== '2.0') throw new Error(`not Swagger 2.0: ${description.swagger}`);
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    inlineRefs: false,
    code: { optimize: false },
    formats: SWAGGER_FORMATS,
  });
  ajv.addSchema({ $id: DOCUMENT_ID, definitions: strictSchema(description.definitions) });
  const compiled = new Map<string, ValidateFunction>();
  /** A schema of the description, its `#/definitions/…` references pointing into the added document. */
  const validator = (schema: object) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(strictSchema(schema, true));
      compiled.set(key, validate);
    }
    return validate;
  };
  const problemsOf = (schema: object, value: unknown, what: string) => {
    const validate = validator(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((error) => describe(error, what));
  };

  const routes = Object.entries(description.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter((entry): entry is [string, Operation] => entry[0] !== 'parameters')
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
        operation,
        // Parameters of the path item apply to each of its operations unless one redefines them.
        parameters: [
          ...(item.parameters ?? []).filter(
            (p) => !operation.parameters?.some((o) => o.name === p.name && o.in === p.in),
          ),
          ...(operation.parameters ?? []),
        ],
      })),
  );
  const operations = new Map(routes.map((route) => [route.operation.operationId, route.operation]));
  // Compiled now, not during the first test that sends a request: the envelope definition with all
  // its recipient and tab types takes Ajv a second or two.
  for (const { parameters, operation } of routes) {
    for (const schema of [
      ...parameters.flatMap((p) => (p.schema ? [p.schema] : [])),
      ...Object.values(operation.responses).flatMap((r) => (r.schema && !isFile(r.schema) ? [r.schema] : [])),
    ]) {
      validator(schema);
    }
  }

  return {
    basePath: description.basePath,
    checkRequest(request) {
      const candidates = routes.filter((route) => route.pattern.test(request.path));
      const route = candidates.find((candidate) => candidate.method === request.method);
      if (!route) {
        return {
          operationId: undefined,
          problems: [
            candidates.length > 0
              ? `${request.method} is not defined for ${request.path}`
              : `no operation is defined for ${request.path}`,
          ],
        };
      }
      const problems: string[] = [];
      const pathValues = route.pattern.exec(request.path)?.groups ?? {};
      for (const parameter of route.parameters) {
        if (parameter.in === 'path') {
          const value = decodeURIComponent(pathValues[parameter.name] ?? '');
          if (value === '') problems.push(`path parameter ${parameter.name} is empty`);
          problems.push(...simpleValueProblems(parameter, value));
        } else if (parameter.in === 'query') {
          for (const value of request.query.getAll(parameter.name)) {
            problems.push(...simpleValueProblems(parameter, value));
          }
          if (parameter.required && !request.query.has(parameter.name)) {
            problems.push(`query parameter ${parameter.name} is required`);
          }
        }
      }
      for (const name of new Set(request.query.keys())) {
        if (!route.parameters.some((p) => p.in === 'query' && p.name === name)) {
          problems.push(`query parameter ${name} is not defined`);
        }
      }
      const bodyParameter = route.parameters.find((p) => p.in === 'body');
      if (request.body === undefined) {
        if (bodyParameter?.required) problems.push('a body is required');
      } else if (!bodyParameter?.schema) {
        problems.push('the operation takes no body');
      } else {
        problems.push(...problemsOf(bodyParameter.schema, request.body, 'body'));
        const consumes = route.operation.consumes ?? description.consumes;
        if (!consumes.includes(mediaType(request.contentType))) {
          problems.push(`Content-Type ${request.contentType} is not one of ${consumes.join(', ')}`);
        }
      }
      const produces = route.operation.produces ?? description.produces;
      if (request.accept !== undefined && !accepts(request.accept, produces)) {
        problems.push(`Accept ${request.accept} takes none of ${produces.join(', ')}`);
      }
      return { operationId: route.operation.operationId, problems };
    },
    checkResponse(operationId, status, body) {
      const schema = operations.get(operationId)?.responses[String(status)]?.schema;
      if (!schema) return [`${operationId} defines no answer ${status}`];
      if (isFile(schema)) return Buffer.isBuffer(body) ? [] : ['answer must be a file'];
      return problemsOf(schema, body, 'answer');
    },
    checkDefinition(name, value) {
      if (!description.definitions[name]) return [`no definition ${name}`];
      return problemsOf({ $ref: `#/definitions/${name}` }, value, name);
    },
  };
}

/**
 * A copy of a schema in which every object that lists its properties allows no others, and (for
 * schemas outside the definitions) every `#/definitions/…` reference names the added document.
 * Throws on a keyword outside SHARED_KEYWORDS, or on a `$ref` with siblings (which draft-04 ignores
 * and draft-07 applies).
 */
function strictSchema<T>(schema: T, outside = false): T {
  const copy = (value: unknown, inProperties: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => copy(item, false));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (inProperties) return Object.fromEntries(entries.map(([name, inner]) => [name, copy(inner, false)]));
    const result: Record<string, unknown> = {};
    for (const [key, inner] of entries) {
      if (!SHARED_KEYWORDS.has(key))
        throw new Error(`keyword ${key} is not checked the same in draft-04 and draft-07`);
      if (key === '$ref' && entries.length > 1) throw new Error(`$ref ${String(inner)} has sibling keywords`);
      if (key === '$ref' && outside && typeof inner === 'string' && inner.startsWith('#/')) {
        result[key] = `${DOCUMENT_ID}${inner}`;
      } else {
        result[key] = copy(inner, key === 'properties');
      }
    }
    if ('properties' in result && !('additionalProperties' in result)) result.additionalProperties = false;
    return result;
  };
  // The definitions object maps names to schemas, as `properties` maps names.
  return copy(schema, !outside) as T;
}

/** Path and query values are strings; the description types them as Swagger 2.0 simple types. */
function simpleValueProblems(parameter: Parameter, value: string): string[] {
  const where = `${parameter.in} parameter ${parameter.name}`;
  if (parameter.enum && !parameter.enum.includes(value))
    return [`${where}: ${value} is not one of the values`];
  if (parameter.type === 'boolean' && !/^(true|false)$/.test(value))
    return [`${where} must be true or false`];
  if (parameter.type === 'integer' && !/^-?\d+$/.test(value)) return [`${where} must be an integer`];
  return [];
}

/** Swagger 2.0's schema of a file download, which is no JSON Schema. */
const isFile = (schema: object) => (schema as { type?: unknown }).type === 'file';

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

function accepts(accept: string, produces: string[]): boolean {
  return accept
    .split(',')
    .map(mediaType)
    .some((type) => type === '*/*' || produces.includes(type));
}

function describe(error: ErrorObject, what: string): string {
  const where = `${what}${error.instancePath}`;
  if (error.keyword === 'additionalProperties') {
    return `${where}: property ${String(error.params.additionalProperty)} is not defined by DocuSign`;
  }
  return `${where} ${error.message ?? error.keyword}`;
}
