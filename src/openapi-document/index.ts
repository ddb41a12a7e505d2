/**
 * Reading OpenAPI 3.x and Swagger 2.0 documents, below both the contract check and the importer:
 * text to data, which version it is, local `$ref`s, operation lookup, and every OpenAPI limit.
 * Imports only support/.
 */
export * from './limits.js';
export { isObject, type JsonObject } from './json.js';
export { isYamlSyntaxError, parseDocumentText, type DocumentData, type ReadOptions, type YamlSyntaxError } from './text.js';
export { detectDialect, specVersionOf, type SpecVersion, type SpecVersionInfo } from './version.js';
export { RefResolver, refName } from './refs.js';
export { OpenApiDocument, type Dialect, type FoundOperation } from './document.js';
export { ExampleGenerator, isGeneratedPlaceholder, typeOf, type ExampleDirection } from './schema-example.js';
export { DocumentedAnswers, defaultResponseKey, isJsonMedia, responseKeys, statusForKey, type DocumentedAnswer } from './documented-answers.js';
export { isXmlMedia, xmlRootName, xmlText } from './xml-text.js';
