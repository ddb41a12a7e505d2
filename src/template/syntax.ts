/** The placeholder syntax of spec 8.2, declared once in support/ (the script sandbox shares it). */
export { findPlaceholders, mayHavePlaceholders, type Placeholder } from '../support/placeholder-syntax.js';
