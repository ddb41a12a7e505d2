/**
 * Ferry's one `{{ }}` template engine (spec 8.2): requests, mock answers, events, greetings,
 * replies and MCP results all render here, each at its row of the "Where" table.
 */
export { compile, render, type Template, type RenderContext, type McpValues } from './compile.js';
export { RENDER_PLACES, placeRules, type RenderPlace, type PlaceRules } from './places.js';
export {
  buildVariableScope,
  EMPTY_SCOPE,
  VariableScope,
  type VariableScopeInput,
  type VariableLayer,
  type VariableOrigin,
  type ValuesByName,
} from './scope.js';
export { RequestValues, requestValuesFromHttp, type HttpRequestInput } from './request-values.js';
export { messageText, bytesToText } from './message.js';
export { decodePathPart, decodeQueryPart } from './percent-decode.js';
export { DYNAMIC_VALUE_NAMES, dynamicValue } from './dynamic-values.js';
export { findPlaceholders, type Placeholder } from './syntax.js';
export { parseVarOption, parseVarOptions, VarOptionError } from './var-option.js';
export { TEMPLATE_LIMITS } from './limits.js';
export { templateText, type StoredValue } from './value-text.js';
