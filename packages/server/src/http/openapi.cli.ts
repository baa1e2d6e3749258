/** `npm run openapi`: writes the routes' OpenAPI document to docs/api/openapi.json. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_DOCUMENT_PATH, generateOpenApiText } from './openapi-document';

const text = await generateOpenApiText();
await writeFile(OPENAPI_DOCUMENT_PATH, text);
const paths = Object.keys((JSON.parse(text) as { paths: object }).paths).length;
console.log(`Wrote ${path.relative(process.cwd(), OPENAPI_DOCUMENT_PATH)} (${paths} paths).`);
