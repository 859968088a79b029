// esbuild's binary loader (and the test config's twin of it) turns a .wasm
// import into the module's bytes.
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
