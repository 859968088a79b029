// esbuild's binary loader (and the test config's twin of it) turns a file
// import into its bytes: build/<name>.wasm.gz is a module gzipped, as the
// package embeds it (WasmModule unpacks it), build/<name>.wasm the module as is.
declare module '*.wasm.gz' {
  const gzipped: Uint8Array;
  export default gzipped;
}
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
