// The module's exports, nothing else.
export * from './memory';
export * from './probe';
export * from './aoi';
