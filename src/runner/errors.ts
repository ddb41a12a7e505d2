/** The runner's "cannot start" error is the variables module's: environment resolution throws it. */
export { RunError } from '../variables/errors.js';
