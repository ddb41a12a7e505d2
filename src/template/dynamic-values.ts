/** The dynamic values of spec 8.2 on the host: the one table (dynamic-value-table.ts) with Node's crypto. */
import { randomInt, randomUUID } from 'node:crypto';
import { dynamicValueTable } from '../support/dynamic-value-table.js';

const DYNAMIC_VALUES = dynamicValueTable({ uuid: () => randomUUID(), int: (min, max) => randomInt(min, max) });

export const DYNAMIC_VALUE_NAMES: readonly string[] = [...DYNAMIC_VALUES.keys()];

/** A fresh value for a dynamic value's name (with its `$`), or undefined for any other name. */
export function dynamicValue(name: string): string | undefined {
  const make = DYNAMIC_VALUES.get(name);
  return make === undefined ? undefined : make();
}

/** True for the names `dynamicValue` knows. */
export function isDynamicValueName(name: string): boolean {
  return DYNAMIC_VALUES.has(name);
}
