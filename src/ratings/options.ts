// Options objects arrive from JSON bodies and CLI flags where "absent" is often spelled
// `undefined`; a plain spread would let those undefineds overwrite the defaults.
export function withDefaults<D extends object, O extends object>(defaults: D, options: O): D & O {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaults, ...defined } as D & O;
}
