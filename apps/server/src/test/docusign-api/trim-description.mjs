// Trims DocuSign's eSignature REST API v2.1 description (Swagger 2.0, about 3.5 MB) to the operations
// the adapter calls and the definitions they reference, so the tests can check every request
// against it without network. Run it again when the adapter calls another operation:
//
//   node apps/server/src/test/docusign-api/trim-description.mjs <esignature.rest.swagger-v2.1.json> <commit>
//
// It writes esignature-v2.1.json beside itself and formats it with Biome. Descriptions, examples and
// DocuSign's `x-` extensions are dropped: they make most of the size and mean nothing to validation.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Method and path of every operation of DocuSign's REST API the adapter calls (docusign-provider.ts). */
const OPERATIONS = [
  ['post', '/v2.1/accounts/{accountId}/envelopes'],
  ['post', '/v2.1/accounts/{accountId}/envelopes/{envelopeId}/views/sender'],
  ['get', '/v2.1/accounts/{accountId}/envelopes/{envelopeId}/documents/{documentId}'],
];
/** Definitions kept beside those the operations reference: `envelope` is Connect's `envelopeSummary`. */
const EXTRA_DEFINITIONS = ['envelope'];

const [source, commit] = process.argv.slice(2);
if (!source || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: trim-description.mjs <esignature.rest.swagger-v2.1.json> <commit (40 hex digits)>');
  process.exit(2);
}
const full = JSON.parse(readFileSync(source, 'utf8'));
if (full.swagger !== '2.0') throw new Error(`not a Swagger 2.0 document: ${full.swagger}`);

const isExtension = (key) => key.startsWith('x-');
const DROPPED = new Set(['description', 'example', 'externalDocs', 'title']);

/** Definitions DocuSign's description references but does not define (it has two). */
const undefinedDefinitions = new Set();
const definitionOf = (ref) => ref.replace(/^#\/definitions\//, '');

/**
 * A schema without its prose; property names are kept whatever they are called. A reference to a
 * definition the description lacks becomes the empty schema: the property exists, its shape is unknown.
 */
function schema(value) {
  if (Array.isArray(value)) return value.map(schema);
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.$ref === 'string' && !full.definitions[definitionOf(value.$ref)]) {
    undefinedDefinitions.add(definitionOf(value.$ref));
    return {};
  }
  const kept = {};
  for (const [key, inner] of Object.entries(value)) {
    if (isExtension(key) || DROPPED.has(key)) continue;
    if (key === 'properties') {
      kept.properties = Object.fromEntries(Object.entries(inner).map(([name, s]) => [name, schema(s)]));
    } else {
      kept[key] = schema(inner);
    }
  }
  return kept;
}

const parameter = ({ description: _description, ...rest }) =>
  schema(rest.schema ? { ...rest, schema: schema(rest.schema) } : rest);

const paths = {};
for (const [method, path] of OPERATIONS) {
  const item = full.paths[path];
  const operation = item?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the description`);
  const { operationId, summary, consumes, produces, parameters = [], responses } = operation;
  paths[path] ??= item.parameters?.length ? { parameters: item.parameters.map(parameter) } : {};
  paths[path][method] = {
    operationId,
    summary,
    ...(consumes?.length ? { consumes } : {}),
    ...(produces?.length ? { produces } : {}),
    parameters: parameters.map(parameter),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        // Swagger 2.0 requires a response's description.
        {
          description: response.description ?? '',
          ...(response.schema ? { schema: schema(response.schema) } : {}),
        },
      ]),
    ),
  };
}

/** Every definition the kept operations reach, following `$ref` transitively. */
const names = new Set();
const pending = [...EXTRA_DEFINITIONS];
JSON.stringify(paths, collectRefs);
while (pending.length > 0) {
  const name = pending.pop();
  if (names.has(name)) continue;
  if (!full.definitions[name]) continue;
  names.add(name);
  JSON.stringify(full.definitions[name], collectRefs);
}
function collectRefs(key, value) {
  if (key === '$ref' && typeof value === 'string') pending.push(definitionOf(value));
  return value;
}

const trimmed = {
  swagger: full.swagger,
  info: {
    title: full.info.title,
    version: full.info.version,
    license: {
      name: 'MIT',
      url: 'https://github.com/docusign/eSign-OpenAPI-Specification/blob/master/LICENSE',
    },
    'x-trimmed-from': `https://github.com/docusign/eSign-OpenAPI-Specification/blob/${commit}/esignature.rest.swagger-v2.1.json`,
  },
  host: full.host,
  basePath: full.basePath,
  schemes: full.schemes,
  consumes: full.consumes,
  produces: full.produces,
  paths,
  definitions: Object.fromEntries([...names].sort().map((name) => [name, schema(full.definitions[name])])),
};

// Filled while the definitions above were trimmed.
trimmed.info['x-undefined-definitions'] = [...undefinedDefinitions].sort();

const target = new URL('esignature-v2.1.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(trimmed, null, 2)}\n`);
execFileSync('npx', ['biome', 'format', '--write', target.pathname], { stdio: 'inherit' });
console.log(`${OPERATIONS.length} operations, ${names.size} definitions → ${target.pathname}`);
