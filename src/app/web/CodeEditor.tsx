/**
 * CodeMirror 6 for bodies and scripts: `{{variable}}` marked and completed, JSON or JavaScript
 * highlighting, XML and HTML highlighting (code-modes.ts, loaded when first shown), GraphQL with
 * completion and inline lint from the schema read by introspection (cm6-graphql, loaded only when
 * a GraphQL query is edited).
 */
import { autocompletion, type CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { codeMode } from './code-modes.js';
import { useCodeMirror, variables } from './editor-look.js';
import type { GraphQLSchema } from 'graphql';
import { useEffect, useRef } from 'react';

/** Completes `{{name` with the names the page knows (workspace and environment variables, dynamic values). */
function variableCompletion(names: () => readonly string[]) {
  return (context: CompletionContext) => {
    const word = context.matchBefore(/\{\{[\w$.-]*/);
    if (!word) return null;
    return { from: word.from + 2, options: names().map((label) => ({ label, type: 'variable', apply: `${label}}}` })) };
  };
}

/**
 * The completions of the GraphQL language (cm6-graphql gives them as language data): the
 * `override` list that completes variables would otherwise hide them. Other languages keep
 * variables only, as before.
 */
async function graphqlCompletion(context: CompletionContext): Promise<CompletionResult | null> {
  for (const source of context.state.languageDataAt<CompletionSource>('autocomplete', context.pos)) {
    const result = await source(context);
    if (result) return result;
  }
  return null;
}

export type Language = 'json' | 'javascript' | 'graphql' | 'xml' | 'html' | 'text';
/** Languages whose mode comes from code-modes.ts (not bundled with the editor). */
const LOADED_MODES: readonly Language[] = ['xml', 'html'];
type GraphqlModule = typeof import('cm6-graphql');
let graphqlModule: Promise<GraphqlModule> | undefined;
const loadGraphql = () => (graphqlModule ??= import('cm6-graphql'));

function languageExtension(language: Language, graphql: GraphqlModule | undefined, schema: GraphQLSchema | undefined): Extension {
  if (language === 'json') return json();
  if (language === 'javascript') return javascript();
  if (language === 'graphql' && graphql) return graphql.graphql(schema);
  return [];
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language?: Language;
  /** For `graphql`: the schema that completes and checks the query (none: highlighting only). */
  graphqlSchema?: GraphQLSchema;
  variableNames?: readonly string[];
  readOnly?: boolean;
  label: string;
  minHeight?: number;
}

export function CodeEditor({ value, onChange, language = 'text', graphqlSchema, variableNames = [], readOnly = false, label, minHeight = 160 }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  const names = useRef(variableNames);
  const languageSlot = useRef(new Compartment());
  const graphql = useRef<GraphqlModule | undefined>(undefined);
  const schema = useRef(graphqlSchema);
  const languageNow = useRef(language);
  languageNow.current = language;
  changed.current = onChange;
  names.current = variableNames;

  const view = useCodeMirror(host, value, label, changed, () => [
    // Bodies are filled in when sent; in scripts, text they put in the request is (and replaceIn fills its text).
    variables,
    autocompletion({ override: [variableCompletion(() => names.current), (context) => (languageNow.current === 'graphql' ? graphqlCompletion(context) : null)] }),
    languageSlot.current.of(languageExtension(language, graphql.current, graphqlSchema)),
    EditorState.readOnly.of(readOnly),
  ]);

  useEffect(() => {
    let current = true;
    const apply = (mode?: Extension) => view.current?.dispatch({ effects: languageSlot.current.reconfigure(mode ?? languageExtension(language, graphql.current, schema.current)) });
    apply();
    if (LOADED_MODES.includes(language)) {
      void codeMode(language).then((mode) => {
        if (current) apply(mode);
      });
    }
    if (language === 'graphql' && !graphql.current) {
      void loadGraphql().then((module) => {
        graphql.current = module;
        if (current) apply();
      });
    }
    return () => {
      current = false;
    };
  }, [language]);

  useEffect(() => {
    schema.current = graphqlSchema;
    if (view.current && graphql.current && language === 'graphql') {
      // `as never`: TypeScript reads cm6-graphql's CodeMirror types by another resolution mode; the bundle has one copy.
      graphql.current.updateSchema(view.current as never, graphqlSchema);
    }
  }, [graphqlSchema]);

  return <div className="code-editor" ref={host} style={{ minHeight }} data-label={label} />;
}
